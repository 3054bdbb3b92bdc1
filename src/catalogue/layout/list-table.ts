// The table of a list page (the staff lists, the notices): its column headings and rows, or the
// sentence that says the list is empty.
import { html, type Markup } from '../../http/representation/markup.ts';

/** `headings`: one per column; a `null` one (a column this page leaves out) is skipped. */
export function listTable(
  headings: readonly (string | null)[],
  rows: readonly Markup[],
  empty: string,
): Markup {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<table class="loans">
    <thead>
      <tr>
        ${headings.map((h) => (h === null ? '' : html`<th scope="col">${h}</th>`))}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}
