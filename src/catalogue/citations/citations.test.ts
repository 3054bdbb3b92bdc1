// The citation writers' own rules (ADR 0095), without a server: RIS's line grammar and TeX's
// specials. test/linked-data/embedded-metadata.test.ts parses what the server sends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeContext } from '../../../test/kit/catalogue/fakes.ts';
import type { Work } from '../model.ts';
import { escapeBibtex, workBibtex } from './bibtex.ts';
import { workRis } from './ris.ts';

const work = (titel: string, personen: Work['personen'] = []): Work => ({
  id: 1,
  slug: 'ein-werk',
  titel,
  jahr: null,
  exemplare: 0,
  verfuegbar: 0,
  personen,
  updatedAt: new Date('2024-01-01T00:00:00Z'),
});

test('RIS: a line break in data cannot start a tag of its own', () => {
  const ris = workRis(work('Erste Zeile\r\nER  - \nTY  - JOUR'), fakeContext({ format: 'ris' }));
  const lines = ris.split('\r\n');
  assert.equal(lines.filter((l) => l.startsWith('ER  -')).length, 1);
  assert.equal(lines.filter((l) => l.startsWith('TY  -')).length, 1);
  assert.ok(lines.includes('TI  - Erste Zeile ER  -  TY  - JOUR'), ris);
  assert.ok(!ris.includes('PY  -'), 'no year, no PY line');
});

test('BibTeX: every TeX special is escaped, hyphens stay hyphens, a field stays one line', () => {
  assert.equal(
    escapeBibtex('{a} \\ $ & % # _ ^ ~ -- ---\nx'),
    '\\{a\\} \\textbackslash{} \\$ \\& \\% \\# \\_ \\textasciicircum{} \\textasciitilde{} -{}- -{}-{}- x',
  );
});

test('BibTeX: a name part with " and " or a comma is braced, so it stays one name', () => {
  const bib = workBibtex(
    work('T', [
      { id: 1, slug: 'a', vorname: 'Ann', nachname: 'Smith and Sons' },
      { id: 2, slug: 'b', vorname: '', nachname: 'Homer' },
      { id: 3, slug: 'c', vorname: 'Jr.', nachname: 'King, Martin' },
    ]),
    fakeContext({ format: 'bib' }),
  );
  assert.match(bib, /^ {2}author = \{\{Smith and Sons\}, Ann and Homer and \{King, Martin\}, Jr\.\},$/m);
  assert.match(bib, /^@book\{ein-werk,\n {2}title = \{T\},/);
  assert.ok(bib.endsWith('\n}\n'));
});
