// Progressive enhancement of the error-log page: with EventSource, rows for new entries are
// put on top as they are written. Builds the DOM with textContent only (no HTML from data).
// Without JavaScript the page is complete; the "follow live" link opens the raw stream.
/** Served as a file (routes.ts): the Content-Security-Policy allows no inline script. */
export const LIVE_SCRIPT_PATH = '/static/fehlerprotokoll.js';

export const LIVE_SCRIPT = String.raw`(function () {
  var table = document.querySelector('table.error-log[data-live]');
  if (!table || !window.EventSource) return;
  var body = table.tBodies[0];
  var source = new EventSource(table.getAttribute('data-live'));
  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }
  source.addEventListener('entry', function (event) {
    var e = JSON.parse(event.data);
    var row = document.createElement('tr');
    if ('zeile' in e) {
      cell(row, e.zeile, 'raw').colSpan = 6;
    } else {
      cell(row, e.zeit.slice(0, 10) + ' ' + e.zeit.slice(11, 19));
      var badge = document.createElement('span');
      badge.className = 'level level-' + e.stufe;
      badge.textContent = e.stufe;
      cell(row, '').appendChild(badge);
      cell(row, e.modul);
      cell(row, String(e.pid));
      cell(row, e.client || '');
      var text = e.meldung.replace(/\\(.)/g, function (m, c) { return c === 'n' ? '\n' : m; });
      cell(row, e.referer ? text + '\nReferer: ' + e.referer : text, 'message');
    }
    row.className = 'new';
    body.insertBefore(row, body.firstChild);
  });
})();`;
