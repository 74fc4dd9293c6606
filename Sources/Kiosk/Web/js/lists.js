/* The missing and unexpected lists of the scanning screen: loaded from the kiosk after scans
 * (debounced, one request per list at a time) and searched; and the search boxes, which hand a
 * barcode gun's scan to the entry field. assetItem draws one asset for the summary's lists too. */

import { app } from './app.js';
import { $, el, make, setText } from './dom.js';
import { arr, fmtInt, fmtTime, num, obj, str } from './format.js';
import { api, errorMessage } from './api.js';
import { armIdleReturn, focusEntry } from './focus.js';
import { REASONS } from './outcomes.js';

const LIST_PER_PAGE = 50;

const lists = {
  missing: { seq: 0, timer: null, busy: false, again: false },
  unexpected: { seq: 0, timer: null, busy: false, again: false }
};

export function clearLists() {
  ['missing', 'unexpected'].forEach(function (name) {
    $(name + '-list').textContent = '';
    setText($(name + '-total'), '');
    setText($(name + '-note'), '');
  });
}

export function scheduleLists(delay) {
  scheduleList('missing', delay);
  scheduleList('unexpected', delay);
}

function scheduleList(name, delay) {
  var l = lists[name];
  clearTimeout(l.timer);
  l.timer = setTimeout(function () { loadList(name); }, delay || 0);
}

function loadList(name) {
  var l = lists[name];
  var audit = obj(app.state && app.state.audit);
  if (app.screen !== 'scan' || !audit) return;
  if (l.busy) { l.again = true; return; }
  l.busy = true;
  l.again = false;
  var search = $(name + '-search').value.trim();
  var seq = ++l.seq;
  var url = '/api/details/' + name + '?audit_id=' + encodeURIComponent(audit.id) +
    '&search=' + encodeURIComponent(search) + '&per_page=' + LIST_PER_PAGE;
  var done = function () {
    l.busy = false;
    if (l.again) scheduleList(name, 200);
  };
  api('GET', url, null, 15000).then(function (res) {
    done();
    if (seq !== l.seq || app.screen !== 'scan') return;
    if (res.ok && obj(res.data)) renderList(name, res.data, search);
    else listUnavailable(name, errorMessage(res, 'The list could not be loaded'));
  }, function () {
    done();
    if (seq !== l.seq) return;
    listUnavailable(name, 'The list could not be loaded: the kiosk service is not responding.');
  });
}

export function assetItem(a, name) {
  var li = make('li');
  var line = make('div', 'a-line');
  var ident = str(a.asset_tag || a.identifier);
  var id = make('span', 'a-id', ident);
  id.title = ident;
  line.appendChild(id);
  line.appendChild(make('span', 'a-name', a.name ? str(a.name) : (name === 'unexpected' ? 'Unknown tag' : '')));
  li.appendChild(line);
  var meta = [];
  if (name === 'unexpected') {
    var reason = str(a.reason);
    var text = REASONS[reason] || '';
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
  var audit = obj(app.state && app.state.audit) || {};
  var count = name === 'missing' ? audit.missing_count : audit.unexpected_count;
  $(name + '-list').textContent = '';
  setText($(name + '-total'), count === undefined ? '' : '(' + fmtInt(num(count)) + ')');
  setText($(name + '-note'), '\u26A0 ' + why);
}

function renderList(name, data, search) {
  var assets = arr(data.assets);
  var pag = obj(data.pagination) || {};
  var total = pag.total === undefined ? assets.length : num(pag.total);
  var listEl = $(name + '-list');
  var frag = document.createDocumentFragment();
  assets.forEach(function (a) { if (obj(a)) frag.appendChild(assetItem(a, name)); });
  listEl.textContent = '';
  listEl.appendChild(frag);
  setText($(name + '-total'), search ? '(' + fmtInt(total) + ' matching)' : '(' + fmtInt(total) + ')');
  var note = '';
  if (total === 0) note = search ? 'Nothing matches \u201C' + search + '\u201D.' : (name === 'missing' ? 'Nothing missing.' : 'Nothing unexpected so far.');
  else if (total > assets.length) note = 'Showing ' + fmtInt(assets.length) + ' of ' + fmtInt(total) + ': search to narrow it down.';
  setText($(name + '-note'), note);
}

/** Typing in a search box reloads its list (a barcode gun's scan that lands in one is caught
 *  by gun.js and recorded; the box gets its text back). */
export function bindSearches() {
  ['missing', 'unexpected'].forEach(function (name) {
    var input = $(name + '-search');
    input.addEventListener('input', function () { scheduleList(name, 250); armIdleReturn(); });
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
