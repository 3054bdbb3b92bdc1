import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeHtml, formFields } from './html-form.ts';

test('decodeHtml decodes named and numeric references', () => {
  assert.equal(
    decodeHtml('a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39; &#x2F; &unknown;'),
    'a & b <c> "d" \'e\' / &unknown;',
  );
});

test('formFields sends what a browser sends, in document order, for the form with that action', () => {
  const html = `<form class="search" action="/werke"><input name="q" value="x"></form>
    <form class="write" method="post" action="/werke/faust" novalidate>
      <input type="hidden" name="_method" value="PUT" /><input type="hidden" name="_csrf" value="t&amp;k" />
      <input id="a" name="titel" type="text" value="Faust &#39;I&#39;" />
      <textarea id="b" name="person" rows="3">goethe
schiller</textarea>
      <input type="checkbox" name="off" /><input type="checkbox" name="on" checked />
      <input name="gesperrt" disabled value="x" />
      <button type="submit" name="knopf">Speichern</button><input type="submit" name="s" value="go" />
    </form>
    <form class="delete" method="post" action="/werke/faust"><input type="hidden" name="_method" value="DELETE" /></form>`;
  assert.deepEqual(formFields(html, '/werke/faust', 'write'), [
    ['_method', 'PUT'],
    ['_csrf', 't&k'],
    ['titel', "Faust 'I'"],
    ['person', 'goethe\r\nschiller'],
    ['on', 'on'],
  ]);
  assert.deepEqual(formFields(html, '/werke/faust', 'delete'), [['_method', 'DELETE']]);
  assert.throws(() => formFields(html, '/personen/x'), /no form/);
});
