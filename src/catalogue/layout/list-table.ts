// The table of a list page (the staff lists, the notices, a person's loans and holds): its column
// headings and rows, or the sentence that says the list is empty.
import { html, type Markup } from '../../http/representation/markup.ts';

/** `headings`: one per column; a `null` one (a column this page leaves out) is skipped. */
export function listTable(
  headings: readonly (string | null)[],
  rows: readonly Markup[],
  empty: string,
): Markup {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  return loansTable(headings, rows);
}

/** The table alone (its page says otherwise when there are no rows): column headings, then the rows. */
export function loansTable(headings: readonly (string | null)[], rows: readonly Markup[]): Markup {
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
