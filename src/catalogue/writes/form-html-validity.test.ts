// The write forms (staff views of collection and resource pages, and the 422 form pages) must
// be valid HTML5 for the Nu checker, like every other catalogue page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { skipUnless } from '../../../test/support/requirements.ts';
import { htmlReport } from '../../../test/kit/html-report.ts';
import { personResource, personsResource } from '../persons/index.ts';
import { workResource, worksResource } from '../works/index.ts';
import { lifeDatesResource } from '../life-dates/index.ts';
import { memoryCatalogue } from '../../../test/kit/catalogue/memory.ts';
import { bodyOf, representationOf, run } from '../../../test/kit/catalogue/write-support.ts';

test('write forms pass the Nu HTML checker', skipUnless('java'), async () => {
  const { persons, works, lifeDates } = await memoryCatalogue();
  await persons.create({ vorname: 'Johann Wolfgang', nachname: 'von Goethe', slug: 'goethe' });
  await works.create({ titel: 'Faust', personIds: [1], slug: 'faust' });
  const html = { format: 'html' as const };
  const pages = {
    persons: await run(personsResource(persons), 'GET', html),
    person: await run(personResource(persons), 'GET', { ...html, query: 'slug=goethe' }),
    works: await run(worksResource(works, persons), 'GET', html),
    work: await run(workResource(works, persons), 'GET', { ...html, query: 'slug=faust', lang: 'en' }),
    newPerson422: await run(personsResource(persons), 'POST', {
      ...html,
      body: { vorname: '' },
    }),
    // An image that is no address at all is shown again as typed (it must stay valid HTML).
    newPerson422Image: await run(personsResource(persons), 'POST', {
      ...html,
      body: { vorname: 'Anna', nachname: 'Seghers', image: 'kein Bild' },
    }),
    editPerson422: await run(personResource(persons), 'PUT', {
      ...html,
      query: 'slug=goethe',
      body: { vorname: 'J' },
    }),
    lifeDates: await run(lifeDatesResource(lifeDates), 'GET', { ...html, query: 'slug=goethe' }),
    lifeDates422: await run(lifeDatesResource(lifeDates), 'PUT', {
      ...html,
      query: 'slug=goethe',
      body: { geboren: 'x', gestorben: '1700' },
    }),
    newWork422: await run(worksResource(works, persons), 'POST', { ...html, body: { person: 'niemand' } }),
    editWork422: await run(workResource(works, persons), 'PUT', {
      ...html,
      query: 'slug=faust',
      body: { jahr: 'y' },
    }),
  };
  const report = await htmlReport(
    Object.entries(pages).map(([name, outcome]) => ({
      name,
      html: bodyOf(representationOf(outcome), 'html'),
    })),
  );
  assert.equal(report, '');
});
