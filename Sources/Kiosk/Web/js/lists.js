/* The missing and unexpected lists of the scanning and summary screens: loaded from the kiosk
 * after scans (the earliest load asked for stands, one request per list at a time), a page of 50 at a time with first,
 * previous, next and last, so every row is reachable; searched on the scanning screen; and the
 * print sheet of every missing asset grouped by location. */

import { app, soonest } from './app.js';
import { $, make, setText } from './elements.js';
import { el } from './dom.js';
import { arr, fmtInt, fmtTime, num, obj, str } from './format.js';
import { api, errorMessage } from './api.js';
import { photoButton } from './dialog.js';
import { armIdleReturn, focusEntry } from './focus.js';
import { REASONS } from './words.js';

const LIST_PER_PAGE = 50;

/* Four paged lists: the scanning screen's missing and unexpected (with search), and the
 * summary's. Each reaches every row a page at a time. */
const lists = {
  missing: { kind: 'missing', screen: 'scan' },
  unexpected: { kind: 'unexpected', screen: 'scan' },
  'summary-missing': { kind: 'missing', screen: 'summary' },
  'summary-unexpected': { kind: 'unexpected', screen: 'summary' }
};
Object.keys(lists).forEach(function (name) {
  const l = lists[name];
  l.seq = 0; l.timer = null; l.due = 0; l.busy = false; l.again = false; l.page = 1; l.lastPage = 1; l.auditId = null;
});

function auditOf(l) {
  if (l.screen === 'summary') return obj(app.summary && app.summary.audit);
  return obj(app.state && app.state.audit);
}

function searchOf(name) {
  const box = $(name + '-search');
  return box ? box.value.trim() : '';
}

export function clearLists() {
  ['missing', 'unexpected'].forEach(function (name) {
    lists[name].page = 1;
    $(name + '-list').textContent = '';
    setText($(name + '-total'), '');
    setText($(name + '-note'), '');
    setText($(name + '-range'), '');
  });
}

export function scheduleLists(delay) {
  scheduleList('missing', delay);
  scheduleList('unexpected', delay);
}

/** The summary's lists of the audit shown there, from their first page. */
export function loadSummaryLists() {
  ['summary-missing', 'summary-unexpected'].forEach(function (name) {
    const l = lists[name];
    const audit = auditOf(l);
    if (!audit) return;
    if (l.auditId !== audit.id) { l.auditId = audit.id; l.page = 1; }
    scheduleList(name, 0);
  });
}

/* A load reads the search box and the page when it starts; one asked for while a load runs
 * comes right after it. */
function scheduleList(name, delay) {
  soonest(lists[name], delay, function () { loadList(name); });
}

function loadList(name) {
  const l = lists[name];
  const audit = auditOf(l);
  if (app.screen !== l.screen || !audit) return;
  if (l.busy) { l.again = true; return; }
  l.busy = true;
  l.again = false;
  const search = searchOf(name);
  const seq = ++l.seq;
  const url = '/api/details/' + l.kind + '?audit_id=' + encodeURIComponent(audit.id) +
    '&search=' + encodeURIComponent(search) + '&per_page=' + LIST_PER_PAGE + '&page=' + l.page;
  const done = function () {
    l.busy = false;
    if (l.again) scheduleList(name, 200);
  };
  api('GET', url, null, 15000).then(function (res) {
    done();
    if (seq !== l.seq || app.screen !== l.screen) return;
    if (res.ok && obj(res.data)) renderList(name, res.data, search);
    else listUnavailable(name, errorMessage(res, 'The list could not be loaded'));
  }, function () {
    done();
    if (seq !== l.seq) return;
    listUnavailable(name, 'The list could not be loaded: the kiosk service is not responding.');
  });
}

/** The header's count comes from the same numbers as the counters (one snapshot); while a
 *  search narrows the list, the number of matches. */
export function renderListHeaders() {
  ['missing', 'unexpected'].forEach(function (name) {
    if (searchOf(name)) return;
    const p = app.progress;
    if (!p) return;
    setText($(name + '-total'), '(' + fmtInt(name === 'missing' ? p.missing_count : p.unexpected_count) + ')');
  });
}

export function assetItem(a, name) {
  const li = make('li');
  const line = make('div', 'a-line');
  const ident = str(a.asset_tag || a.identifier);
  const id = make('span', 'a-id', ident);
  id.title = ident;
  line.appendChild(id);
  line.appendChild(make('span', 'a-name', a.name ? str(a.name) : (name === 'unexpected' ? 'Unknown tag' : '')));
  const audit = obj(app.summary && app.summary.audit) || obj(app.state && app.state.audit);
  if (a.photo_scan_id && audit) line.appendChild(photoButton(str(audit.id), str(a.photo_scan_id), ident));
  li.appendChild(line);
  const meta = [];
  if (name === 'unexpected') {
    const reason = str(a.reason);
    let text = REASONS[reason] || '';
    if (reason === 'other_country' && a.country) text += ' (' + str(a.country) + ')';
    if (text) meta.push(text);
    if (a.user) meta.push('by ' + str(a.user));
    if (a.first_scanned_at) meta.push(fmtTime(a.first_scanned_at));
  } else {
    if (a.model) meta.push(str(a.model));
    if (a.location) meta.push(str(a.location));
    if (a.serial_num && a.serial_num !== a.asset_tag) meta.push('S/N ' + str(a.serial_num));
  }
  if (meta.length) li.appendChild(make('div', 'a-meta', meta.join(' \u00B7 ')));
  return li;
}

// An old list would be wrong (scans went on meanwhile): show none, the count the audit's
// numbers give, and why.
function listUnavailable(name, why) {
  const l = lists[name];
  const audit = auditOf(l) || {};
  const count = l.kind === 'missing' ? audit.missing_count : audit.unexpected_count;
  $(name + '-list').textContent = '';
  setText($(name + '-total'), count === undefined ? '' : '(' + fmtInt(num(count)) + ')');
  setText($(name + '-note'), '\u26A0 ' + why);
  setText($(name + '-range'), '');
}

function renderList(name, data, search) {
  const l = lists[name];
  const assets = arr(data.assets);
  const pag = obj(data.pagination) || {};
  const total = pag.total === undefined ? assets.length : num(pag.total);
  l.lastPage = Math.max(1, num(pag.last_page) || 1);
  if (l.page > l.lastPage) { l.page = l.lastPage; scheduleList(name, 0); return; }
  const listEl = $(name + '-list');
  const frag = document.createDocumentFragment();
  assets.forEach(function (a) { if (obj(a)) frag.appendChild(assetItem(a, l.kind)); });
  listEl.textContent = '';
  listEl.appendChild(frag);
  listEl.scrollTop = 0;
  if (search) setText($(name + '-total'), '(' + fmtInt(total) + ' matching)');
  else if (l.screen === 'scan' && app.progress) renderListHeaders();
  else setText($(name + '-total'), '(' + fmtInt(total) + ')');
  let note = '';
  const c = obj(app.state && app.state.connection) || {};
  const waiting = l.screen === 'scan' && c.state && c.state !== 'standalone' ? num(c.pending_scans) : 0;
  if (waiting > 0) {
    // A connected station's lists are the server's: its own scans join them once synced.
    note = '\u2026 ' + fmtInt(waiting) + (waiting === 1 ? ' scan waits' : ' scans wait') + ' to sync; this list shows what the server has.';
  } else if (total === 0) {
    note = search ? 'Nothing matches \u201C' + search + '\u201D.'
      : (l.kind === 'missing' ? 'Nothing missing.' : (l.screen === 'summary' ? 'Nothing unexpected was scanned.' : 'Nothing unexpected so far.'));
  }
  setText($(name + '-note'), note);
  const first = (l.page - 1) * LIST_PER_PAGE + 1;
  const range = total === 0 ? '' : 'Rows ' + fmtInt(first) + '\u2013' + fmtInt(first + assets.length - 1) + ' of ' + fmtInt(total) +
    ' \u00B7 page ' + fmtInt(l.page) + ' of ' + fmtInt(l.lastPage);
  setText($(name + '-range'), range);
  const pager = $(name + '-pager');
  if (pager) {
    pager.hidden = l.lastPage <= 1;
    Array.prototype.forEach.call(pager.querySelectorAll('button[data-go]'), function (b) {
      const go = b.getAttribute('data-go');
      b.disabled = (go === 'first' || go === 'prev') ? l.page <= 1 : l.page >= l.lastPage;
    });
  }
}

/** First, previous, next and last page of a list. */
function goPage(name, go) {
  const l = lists[name];
  let page = go === 'first' ? 1 : go === 'prev' ? l.page - 1 : go === 'next' ? l.page + 1 : l.lastPage;
  page = Math.max(1, Math.min(l.lastPage, page));
  if (page === l.page) return;
  l.page = page;
  scheduleList(name, 0);
}

/** Every row of an audit's missing list, grouped by location on light pages for printing
 *  (@media print in kiosk.css). Resolves once the sheet is ready. */
export function preparePrint() {
  const audit = obj(app.summary && app.summary.audit) || obj(app.state && app.state.audit);
  if (!audit) return Promise.resolve(false);
  document.body.removeAttribute('data-print-ready');
  const rows = [];
  const fetchPage = function (page) {
    const url = '/api/details/missing?audit_id=' + encodeURIComponent(audit.id) + '&per_page=100&page=' + page;
    return api('GET', url, null, 30000).then(function (res) {
      if (!res.ok || !obj(res.data)) throw new Error(errorMessage(res, 'The missing list could not be loaded'));
      arr(res.data.assets).forEach(function (a) { if (obj(a)) rows.push(a); });
      const last = num(obj(res.data.pagination) && res.data.pagination.last_page) || 1;
      return page < last ? fetchPage(page + 1) : rows;
    });
  };
  return fetchPage(1).then(function () {
    renderPrintSheet(audit, rows);
    document.body.setAttribute('data-print-ready', 'true');
    return true;
  });
}

function renderPrintSheet(audit, rows) {
  const sheet = el.printSheet;
  sheet.textContent = '';
  sheet.appendChild(make('h1', null, 'Missing assets \u2014 audit of ' + str(audit.country)));
  sheet.appendChild(make('p', 'print-meta', fmtInt(rows.length) + ' missing \u00B7 started ' + fmtTime(audit.started_at) +
    (audit.ended_at ? ' \u00B7 ended ' + fmtTime(audit.ended_at) : ' \u00B7 still running') + ' \u00B7 audit ' + str(audit.id)));
  const groups = {};
  rows.forEach(function (a) {
    const place = str(a.location) || 'No location';
    (groups[place] = groups[place] || []).push(a);
  });
  Object.keys(groups).sort(function (x, y) {
    if (x === 'No location') return 1;
    if (y === 'No location') return -1;
    return x.localeCompare(y);
  }).forEach(function (place) {
    const section = make('section', 'print-group');
    section.appendChild(make('h2', null, place + ' (' + fmtInt(groups[place].length) + ')'));
    const table = make('table');
    const head = make('tr');
    ['Tag', 'Serial', 'Name', 'Model', 'Status'].forEach(function (h) { head.appendChild(make('th', null, h)); });
    table.appendChild(make('thead')).appendChild(head);
    const body = make('tbody');
    groups[place].forEach(function (a) {
      const tr = make('tr');
      [a.asset_tag || a.identifier, a.serial_num, a.name, a.model, a.status].forEach(function (v) { tr.appendChild(make('td', null, str(v))); });
      body.appendChild(tr);
    });
    table.appendChild(body);
    section.appendChild(table);
    sheet.appendChild(section);
  });
}

export function printMissing() {
  el.printButton.disabled = true;
  preparePrint().then(function () {
    el.printButton.disabled = false;
    window.print();
  }, function (e) {
    el.printButton.disabled = false;
    setText(el.summaryError, '\u26A0 ' + str(e && e.message));
    el.summaryError.hidden = false;
  });
}

/** The four buttons of every list's pager (first, previous, next, last): one markup for the
 *  page's four pagers, drawn once at start. */
const PAGER_BUTTONS = [
  ['first', 'First page', '\u00AB'], ['prev', 'Previous page', '\u2039'],
  ['next', 'Next page', '\u203A'], ['last', 'Last page', '\u00BB'],
];

export function fillPagers() {
  Array.prototype.forEach.call(document.querySelectorAll('.pager'), function (pager) {
    PAGER_BUTTONS.forEach(function (b) {
      const button = make('button', 'button small', b[2]);
      button.type = 'button';
      button.setAttribute('data-go', b[0]);
      button.setAttribute('aria-label', b[1]);
      button.title = b[1];
      pager.appendChild(button);
    });
  });
}

/** Typing in a search box reloads its list (a barcode gun's scan that lands in one is caught
 *  by gun.js and recorded; the box gets its text back). */
export function bindSearches() {
  Object.keys(lists).forEach(function (name) {
    const pager = $(name + '-pager');
    if (pager) pager.addEventListener('click', function (e) {
      const b = e.target.closest ? e.target.closest('button[data-go]') : null;
      if (b && !b.disabled) goPage(name, b.getAttribute('data-go'));
    });
  });
  ['missing', 'unexpected'].forEach(function (name) {
    const input = $(name + '-search');
    input.addEventListener('input', function () { lists[name].page = 1; scheduleList(name, 120); armIdleReturn(); });
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') {
        e.preventDefault();
        scheduleList(name, 0);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        if (input.value) { input.value = ''; scheduleList(name, 0); } else focusEntry();
      }
    });
  });
}
