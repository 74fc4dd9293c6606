/* The audit's numbers (expected, scanned, missing, unexpected) and its completion bar. Every
 * reading of them carries the audit's revision, which rises with every change (a scan, a refusal,
 * an undo, the end): the page keeps the highest it has seen, so a late answer never moves the
 * numbers back, and a lower count with a higher revision (a refusal, an undo) is taken. Also the
 * panel of expected and found assets by location, on the scanning and summary screens: read
 * from the kiosk in one snapshot with the audit's numbers (GET /api/progress), which the counters
 * then show too. */

import { app, soonest } from './app.js';
import { make, setText } from './elements.js';
import { el } from './dom.js';
import { arr, fmtCompletion, fmtInt, num, obj, str } from './format.js';
import { api, errorMessage } from './api.js';
import { renderListHeaders } from './lists.js';

/** Whether a reading of revision `next` is older than the one shown (`shown`). A reading
 *  without a revision is not ordered, and is taken (the newest arrival wins). */
export function olderRevision(next, shown) {
  return typeof next === 'number' && typeof shown === 'number' && next < shown;
}

/** Shows the numbers of `auditId`, unless the page shows a newer reading of the same audit. */
export function applyProgress(auditId, p) {
  p = obj(p);
  if (!p || !auditId) return;
  if (app.progress && app.progress.audit_id === auditId && olderRevision(p.revision, app.progress.revision)) return;
  const before = app.progress;
  app.progress = {
    audit_id: auditId,
    total_assets: num(p.total_assets),
    scanned_count: num(p.scanned_count),
    missing_count: num(p.missing_count),
    unexpected_count: num(p.unexpected_count),
    completion_percentage: num(p.completion_percentage),
    revision: typeof p.revision === 'number' ? p.revision : undefined
  };
  if (app.state && obj(app.state.audit) && app.state.audit.id === auditId) {
    ['total_assets', 'scanned_count', 'missing_count', 'unexpected_count', 'completion_percentage'].forEach(function (k) {
      app.state.audit[k] = app.progress[k];
    });
  }
  renderProgress();
  renderListHeaders();
  if (!before || before.audit_id !== auditId || !sameNumbers(before, app.progress)) schedulePlaces(250);
}

function sameNumbers(a, b) {
  return !!a && !!b && num(a.total_assets) === num(b.total_assets) && num(a.scanned_count) === num(b.scanned_count) &&
    num(a.unexpected_count) === num(b.unexpected_count);
}

/* The by-location panel of the scanning screen: one request at a time, again after the numbers
 * move; the snapshot it shows is the one the counters show once it is in. */
const places = { timer: null, busy: false, again: false, shown: null, stale: 0 };

export function schedulePlaces(delay) {
  soonest(places, delay, loadPlaces);
}

function loadPlaces() {
  const audit = obj(app.state && app.state.audit);
  if (app.screen !== 'scan' || !audit) return;
  if (places.busy) { places.again = true; return; }
  places.busy = true;
  places.again = false;
  const id = audit.id;
  const done = function () {
    places.busy = false;
    if (places.again) schedulePlaces(200);
  };
  api('GET', '/api/progress?audit_id=' + encodeURIComponent(id), null, 15000).then(function (res) {
    done();
    const current = obj(app.state && app.state.audit);
    if (app.screen !== 'scan' || !current || current.id !== id) return;
    const snap = obj(res.data);
    if (!res.ok || !snap || snap.audit_id !== id) {
      placesUnavailable(errorMessage(res, 'The locations could not be counted'));
      return;
    }
    applyProgress(id, snap.progress);
    places.shown = snap;
    renderPlaces(snap, { card: el.placesCard, body: el.placesBody, foot: el.placesFoot, note: el.placesNote });
    // A scan answered while the snapshot was read: the counters are newer, so read again.
    const fresh = sameNumbers(app.progress, obj(snap.progress));
    el.placesCard.setAttribute('data-fresh', fresh ? 'true' : 'false');
    places.stale = fresh ? 0 : places.stale + 1;
    if (!fresh && places.stale <= 5) schedulePlaces(300 * places.stale);
  }, function () {
    done();
    placesUnavailable('The locations could not be counted: the kiosk service is not responding.');
  });
}

function placesUnavailable(why) {
  if (places.shown) setText(el.placesNote, '\u26A0 ' + why);
}

/** Another audit: its panel comes with its own snapshot. */
export function forgetPlaces() {
  places.shown = null;
  el.placesCard.hidden = true;
}

/** The summary's panel of an ended audit. */
export function loadSummaryPlaces(auditId) {
  const parts = { card: el.summaryPlacesCard, body: el.summaryPlacesBody, foot: el.summaryPlacesFoot, note: el.summaryPlacesNote };
  api('GET', '/api/progress?audit_id=' + encodeURIComponent(auditId), null, 30000).then(function (res) {
    const shown = obj(app.summary && app.summary.audit);
    if (app.screen !== 'summary' || !shown || shown.id !== auditId) return;
    if (res.ok && obj(res.data)) renderPlaces(res.data, parts);
    else { parts.card.hidden = true; }
  }, function () { parts.card.hidden = true; });
}

/** One row per registered location, the total of the snapshot's own numbers, and the finds
 *  whose location this station cannot tell yet (a connected station's copy). */
function renderPlaces(snap, parts) {
  const rows = arr(snap.locations);
  const p = obj(snap.progress) || {};
  parts.card.hidden = rows.length === 0;
  const body = document.createDocumentFragment();
  let misplaced = 0;
  rows.forEach(function (t) {
    t = obj(t);
    if (!t) return;
    misplaced += num(t.misplaced);
    body.appendChild(placeRow(t.location === null || t.location === undefined ? 'No location' : str(t.location),
      t.found, t.expected, t.missing, t.misplaced, t.location === null || t.location === undefined ? 'none' : null));
  });
  const elsewhere = num(snap.found_elsewhere);
  if (elsewhere > 0) {
    const row = placeRow('Found by other stations, place not known here yet', elsewhere, null, null, null, 'elsewhere');
    body.appendChild(row);
  }
  parts.body.textContent = '';
  parts.body.appendChild(body);
  parts.foot.textContent = '';
  parts.foot.appendChild(placeRow('All locations', p.scanned_count, p.total_assets, p.missing_count, misplaced, 'total'));
  setText(parts.note, '');
}

function placeRow(name, found, expected, missing, misplaced, kind) {
  const tr = make('tr');
  if (kind) tr.setAttribute('data-kind', kind);
  const th = make('th', 'place-name', name);
  th.scope = 'row';
  th.title = name;
  tr.appendChild(th);
  [found, expected, missing, misplaced].forEach(function (v, i) {
    const td = make('td', 'num', v === null || v === undefined ? '' : fmtInt(v));
    if (i === 2 && num(v) === 0 && expected !== null) td.setAttribute('data-done', 'true');
    if (i === 3 && num(v) > 0) td.setAttribute('data-misplaced', 'true');
    tr.appendChild(td);
  });
  if (expected !== null && expected !== undefined) {
    const done = num(expected) === 0 ? 100 : Math.min(100, num(found) * 100 / num(expected));
    tr.style.setProperty('--done', done + '%');
  }
  return tr;
}

export function renderProgress() {
  const p = app.progress || { total_assets: 0, scanned_count: 0, missing_count: 0, unexpected_count: 0, completion_percentage: 0 };
  const pct = Math.max(0, Math.min(100, p.completion_percentage));
  setText(el.countTotal, fmtInt(p.total_assets));
  setText(el.countScanned, fmtInt(p.scanned_count));
  setText(el.countMissing, fmtInt(p.missing_count));
  setText(el.countUnexpected, fmtInt(p.unexpected_count));
  setText(el.percent, fmtCompletion(pct));
  el.progressBar.setAttribute('aria-valuenow', fmtCompletion(pct));
  el.progressBar.setAttribute('aria-valuetext', fmtCompletion(pct) + '% complete: ' + fmtInt(p.scanned_count) + ' of ' +
    fmtInt(p.total_assets) + ' scanned');
  el.progressFill.style.width = pct + '%';
}
