/* Small DOM helpers. Every value from the server goes in as text, never as HTML. */

import { $, make } from './elements.js';
import { fmtCompletion } from './format.js';

// Tickets for the loads of one list: each load takes one when it starts, and answers only while
// no later load has started. A tab, a page, a filter or a search chosen while an earlier load is
// on its way is never covered by that earlier answer when it arrives last (a slow network).
export function tickets() {
  let last = 0;
  return function () {
    const mine = ++last;
    return function () { return mine === last; };
  };
}

export function row(cells, cls) {
  const tr = make('tr', cls);
  cells.forEach(function (c) {
    if (c instanceof Node) { const td = make('td'); td.appendChild(c); tr.appendChild(td); }
    else if (c && typeof c === 'object') { const td = make('td', c.cls, c.text); tr.appendChild(td); }
    else tr.appendChild(make('td', null, c === undefined || c === null ? '' : c));
  });
  return tr;
}

export function fill(tbody, rows, empty, columns) {
  tbody.replaceChildren();
  if (!rows.length) {
    const td = make('td', 'muted', empty);
    td.colSpan = columns;
    const tr = make('tr');
    tr.appendChild(td);
    tbody.appendChild(tr);
    return;
  }
  rows.forEach(function (r) { tbody.appendChild(r); });
}

export function header(thead, names) {
  const tr = make('tr');
  names.forEach(function (n) { tr.appendChild(make('th', null, n)); });
  thead.replaceChildren(tr);
}

/** The table's caption, which says what the list is: printed (the tabs and filters are not),
 * and read by screen readers; on screen the heading and tabs say it already. */
export function caption(table, text) {
  const c = table.caption || table.createCaption();
  c.className = 'print-caption';
  c.textContent = text;
}

/** Previous / next and "page N of M (T rows)" under a list. */
export function pager(node, pagination, go) {
  node.replaceChildren();
  if (!pagination) return;
  const prev = make('button', 'quiet', 'Previous');
  prev.type = 'button';
  prev.disabled = pagination.page <= 1;
  prev.addEventListener('click', function () { go(pagination.page - 1); });
  const next = make('button', 'quiet', 'Next');
  next.type = 'button';
  next.disabled = pagination.page >= pagination.last_page;
  next.addEventListener('click', function () { go(pagination.page + 1); });
  node.append(prev, make('span', 'muted', 'Page ' + pagination.page + ' of ' + Math.max(pagination.last_page, 1) + ' (' + pagination.total + ' rows)'), next);
}

export function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** How long ago `iso` was, as the server says it: "just now", "40 s ago", "4 min ago", "3 h ago", "2 d ago". */
export function ago(iso, now) {
  const t = iso ? Date.parse(iso) : NaN;
  if (isNaN(t)) return '';
  const s = Math.max(0, Math.round(((now === undefined ? Date.now() : now) - t) / 1000));
  if (s < 5) return 'just now';
  if (s < 60) return s + ' s ago';
  if (s < 3600) return Math.floor(s / 60) + ' min ago';
  if (s < 48 * 3600) return Math.floor(s / 3600) + ' h ago';
  return Math.floor(s / 86400) + ' d ago';
}

/** An audit's completion, as every page, report and PDF writes it (format.js). */
export function percent(value) { return fmtCompletion(value) + '%'; }

export function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = make('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
}

/** A screen's message line, the element `id`: the answer writes a message into it, red when `bad`. */
export function messageLine(id) {
  return function (message, bad) {
    const n = $(id);
    n.className = bad ? 'error' : 'ok';
    n.textContent = message;
  };
}

/** A row's button whose action calls the server: pressed again while the action runs it does
 *  nothing (a double click acts once), and a refusal is said on the screen's message line. */
export function actionButton(label, cls, act, say) {
  const b = make('button', cls, label);
  b.type = 'button';
  b.addEventListener('click', function () {
    if (b.disabled) return;
    b.disabled = true;
    Promise.resolve().then(act).catch(function (e) { say(e.message, true); }).finally(function () { b.disabled = false; });
  });
  return b;
}
