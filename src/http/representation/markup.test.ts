import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeMarkup, html, trusted, xml } from './markup.ts';

test('every interpolation is escaped, in text and in attributes', () => {
  const name = `<script>alert("x")</script> & 'y'`;
  assert.equal(
    html`<p title="${name}">${name}</p>`.text,
    '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">' +
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>',
  );
});

test('nested templates and trusted text are not escaped twice; arrays join; null/false vanish', () => {
  const items = ['a<b', 'c'].map((s) => html`<li>${s}</li>`);
  assert.equal(html`<ul>${items}${null}${false}${undefined}</ul>`.text, '<ul><li>a&lt;b</li><li>c</li></ul>');
  assert.equal(html`${trusted('<br>')}`.text, '<br>');
  assert.equal(html`${0}`.text, '0');
});

test('xml replaces characters XML 1.0 cannot carry', () => {
  assert.equal(xml`<t>${'a\u0000b\u001bc\ud800d'}</t>`.text, '<t>a\ufffdb\ufffdc\ufffdd</t>');
  assert.equal(xml`<t>${'tab\tnewline\n'}</t>`.text, '<t>tab\tnewline\n</t>');
  assert.equal(xml`<t>${'😀'}</t>`.text, '<t>😀</t>');
});

test('escapeMarkup leaves ordinary text alone', () => {
  assert.equal(escapeMarkup('Götz von Berlichingen'), 'Götz von Berlichingen');
});

test("an HTML template loses its source's indentation; interpolated text and XML keep theirs", () => {
  const poem = 'line one\n    line two, indented';
  const page = html`<main>
      <p>first</p>

      <textarea>${poem}</textarea>
    </main>`;
  assert.equal(page.text, `<main>\n<p>first</p>\n<textarea>${poem}</textarea>\n</main>`);
  assert.equal(
    html`<p>${html`<b>
      bold</b>`}</p>`.text,
    '<p><b>\nbold</b></p>',
    'nested templates too',
  );
  assert.equal(
    xml`<a>
    <b/>
  </a>`.text,
    '<a>\n    <b/>\n  </a>',
    'XML as written',
  );
});
