// The buttons of the loan and hold lists carry an accessible name that names the work; it must
// contain the visible text (WCAG 2.5.3 Label in Name; axe's label-content-name-mismatch), or a
// speech-input user saying "Vormerkung löschen" would find no button.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeContext } from '../../../test/kit/catalogue/fakes.ts';
import { MEMBER } from '../../../test/kit/catalogue/write-support.ts';
import type { Lang } from '../../http/resource/types.ts';
import { cancelForm } from './hold-view.ts';
import type { Hold } from './model.ts';

const hold: Hold = {
  id: 5,
  person: { id: MEMBER.id, slug: 'anna-berger', vorname: 'Anna', nachname: 'Berger' },
  werk: { id: 9, slug: 'moby-dick', titel: 'Moby-Dick' },
  placedAt: new Date('2026-11-01T10:00:00Z'),
  status: 'waiting',
  position: 1,
  copy: null,
  readyAt: null,
  expiresAt: null,
  endedAt: null,
  endReason: null,
};

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

for (const lang of ['de', 'en'] as Lang[]) {
  test(`the cancel button's accessible name contains its visible text (${lang})`, () => {
    const markup = cancelForm(hold, fakeContext({ user: MEMBER, format: 'html', lang })).toString();
    const button = /<button[^>]*aria-label="([^"]+)"[^>]*>([^<]+)<\/button>/.exec(markup);
    assert.ok(button, markup);
    const [, label, visible] = button;
    assert.ok(norm(label!).includes(norm(visible!)), `"${label}" contains "${visible}"`);
    assert.match(label!, /Moby-Dick/);
  });
}
