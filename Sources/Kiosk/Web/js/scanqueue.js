/* The kiosk's scan queue. A typed scan goes into a localStorage queue before it is sent, and
 * stays there until the kiosk answers; after a reload or in another tab it is sent again with the
 * same scan_id (the kiosk never counts a scan_id twice). One request is on its way at a time, with
 * every scan queued meanwhile (up to 50) in the order they were typed; after a failure they are
 * retried with a growing delay. The storage and the delay are the shared queue.js's (the phone
 * page's too); the batches, and the pushed events held for the batch on its way, are the kiosk's. */

import { app } from './app.js';
import { setText } from './elements.js';
import { el } from './dom.js';
import { arr, isUndoCommand, newScanId, num, obj, str } from './format.js';
import { Backoff, StoredScans } from './queue.js';
import { api, errorMessage } from './api.js';
import { handleScan, outcomesShown, showPending, wasShown } from './outcomes.js';
import { emit } from './bus.js';
import { ensureAudio } from './sound.js';
import { noteSetAside, takeBurst, takeHeld } from './focus.js';

const QUEUE_KEY = 'auditstation.kiosk.queue.v1';
const BATCH_LIMIT = 50;       // scans in one request at most (the kiosk's limit too)
const SCAN_TIMEOUT_MS = 15000;

const stored = new StoredScans(QUEUE_KEY, function (i) {
  return obj(i) && typeof i.identifier === 'string' && typeof i.scan_id === 'string';
});
const backoff = new Backoff(500, 8000);
let queue = stored.load();
const inFlight = new Set();
let retryTimer = null;
let lastLocalScanId = null;   // the scan typed last on this page
let sending = [];             // the batch on its way, in the order typed
let held = new Map();         // scan_id → the newest pushed event held for the batch's answer

function saveQueue() { stored.save(queue); }

/** Takes the answered scans out of the queue: once for a whole batch (localStorage is read and
 *  written once, not once a scan), keeping what other tabs added meanwhile. */
function removeFromQueue(scanIds) {
  if (!scanIds.length) return;
  queue = stored.remove(queue, scanIds);
  renderSending();
}

export function renderSending() {
  const n = queue.length;
  setText(el.sending, n === 0 ? '' : (n === 1 ? '1 scan sending\u2026' : n + ' scans sending\u2026'));
}

/** The Enter (or Tab) at `t` in the entry field sends its tag. A gun's burst is a tag of its own:
 *  text typed into the field before it is set aside, with a note, never glued onto it. */
export function submitEntry(t) {
  const burst = takeBurst(t);
  // A burst's characters may still be held (focus.js): they follow the field's text.
  let identifier = (el.entry.value + takeHeld()).trim();
  if (el.entry.value !== '') el.entry.value = '';
  if (burst) {
    const before = burst.before.trim();
    identifier = burst.tag.trim();
    if (before && identifier) noteSetAside(before, identifier);
  }
  submitIdentifier(identifier);
}

/** A tag typed or scanned anywhere on the page: queued (kept across a reload) and sent. The
 *  undo command label is not a tag: it opens the undo of the last scan, or confirms it when its
 *  confirmation is open (main.js). */
export function submitIdentifier(identifier) {
  identifier = str(identifier).trim();
  if (!identifier) return;
  if (isUndoCommand(identifier)) { emit('undo-command'); return; }
  const item = { identifier: identifier, scan_id: newScanId(), queued_at: Date.now() };
  queue.push(item);
  saveQueue();               // kept before anything is sent
  lastLocalScanId = item.scan_id;
  renderSending();
  ensureAudio();
  pump();
}

/** Sends the queued scans, oldest first, in one request at a time: the kiosk records them one
 *  after the other, so the trail and the outcomes keep the order they were typed in. */
export function pump() {
  if (inFlight.size > 0 || retryTimer) return;
  // At most 50 scans, and well under the kiosk's 16 KiB body limit.
  let batch = [], bytes = 0;
  for (let i = 0; i < queue.length && batch.length < BATCH_LIMIT; i++) {
    bytes += queue[i].identifier.length * 3 + 80;
    if (batch.length > 0 && bytes > 12000) break;
    batch.push(queue[i]);
  }
  if (!batch.length) return;
  send(batch);
}

function send(batch) {
  sending = batch;
  batch.forEach(function (item) { inFlight.add(item.scan_id); });
  const serialAtSend = outcomesShown();
  const last = batch[batch.length - 1];
  const pendingTimer = setTimeout(function () {
    if (last.scan_id === lastLocalScanId && outcomesShown() === serialAtSend && !wasShown(last.scan_id) && app.screen === 'scan') {
      showPending(last, 'Waiting for the kiosk\u2026');
    }
  }, 400);
  // Each scan keeps the time it was taken: one held here while the kiosk could not answer may
  // have been made before an end the kiosk learns meanwhile, and still counts (late).
  const body = { scans: batch.map(function (item) {
    return { identifier: item.identifier, scan_id: item.scan_id, scanned_at: new Date(item.queued_at || Date.now()).toISOString() };
  }) };
  api('POST', '/api/scans', body, SCAN_TIMEOUT_MS).then(function (res) {
    clearTimeout(pendingTimer);
    inFlight.clear();
    const s = res.status;
    if (s >= 200 && s < 300) {
      backoff.reset();
      const results = arr(obj(res.data) && res.data.results);
      let stopped = false;
      const answered = [];
      results.forEach(function (ev, i) {
        const item = batch[i];
        if (!item || !obj(ev)) return;
        if (!ev.scan_id) ev.scan_id = item.scan_id;
        if (ev.identifier === undefined || ev.identifier === null) ev.identifier = item.identifier;
        if (ev.kind === 'rejected' && (ev.error === 'AUDIT_ENDED' || ev.error === 'NO_ACTIVE_AUDIT')) stopped = true;
        answered.push([ev, item]);
      });
      removeFromQueue(answered.map(function (pair) { return pair[1].scan_id; }));
      const kept = heldDecisions(answered.map(function (pair) { return pair[0]; }));
      // The next scans leave before these answers are drawn: the kiosk stores them meanwhile.
      const whole = results.length >= batch.length;
      if (whole) pump();
      answered.forEach(function (pair) { handleScan(pair[0], { sound: Date.now() - num(pair[1].queued_at) < 10000 }); });
      kept.forEach(function (ev) { handleScan(ev, null); });
      if (stopped) emit('reload');
      if (!whole) failed(batch[results.length], 'The kiosk could not record it yet');
    } else if (s === 401 || s === 408 || s === 429 || s >= 500) {
      // Not decided: keep them and try again (after the PIN, or when the store is back).
      showHeld();
      failed(batch[0], errorMessage(res, 'The kiosk could not record it yet'));
    } else {
      // The batch itself was refused (it should not be): each scan is refused, in order.
      backoff.reset();
      held.clear();
      const d = obj(res.data) || {};
      removeFromQueue(batch.map(function (item) { return item.scan_id; }));
      batch.forEach(function (item) {
        handleScan({
          kind: 'rejected', scan_id: item.scan_id, identifier: item.identifier,
          error: str(d.error || ('HTTP_' + s)), message: errorMessage(res, 'The kiosk refused this scan'),
          source: 'manual', user: app.state && app.state.user, at: new Date().toISOString()
        }, { sound: true });
      });
      if (d.error === 'AUDIT_ENDED' || d.error === 'NO_ACTIVE_AUDIT') emit('reload');
      pump();
    }
  }, function () {
    clearTimeout(pendingTimer);
    inFlight.clear();
    showHeld();
    failed(batch[0], 'The kiosk service is not responding.');
  });
}

function failed(item, message) {
  const delay = backoff.next();
  if (!item) return;
  if (item.scan_id === lastLocalScanId && !wasShown(item.scan_id) && app.screen === 'scan') showPending(item, message);
  if (!retryTimer) retryTimer = setTimeout(function () { retryTimer = null; pump(); }, delay);
}

/** A pushed scan: shown at once (answers true), or held for the answer of the batch on its way.
 *  The scans of that batch are shown in the order typed, so a pushed one is shown at once only
 *  when every scan typed before it in the batch is shown already (a location label is never
 *  pushed). A held event is not dropped: on a connected kiosk it can be the server's decision on a
 *  scan that the answer, made before it, still calls pending (see heldDecisions). */
export function showPushed(ev) {
  if (!awaitingAnswer(ev.scan_id)) return true;
  const before = held.get(ev.scan_id);
  // A decision is never replaced by a pending copy that came after it.
  if (!before || ev.status !== 'pending' || before.status === 'pending') held.set(ev.scan_id, ev);
  return false;
}

function awaitingAnswer(scanId) {
  if (!scanId || !inFlight.has(scanId)) return false;
  for (let i = 0; i < sending.length && sending[i].scan_id !== scanId; i++) {
    if (!wasShown(sending[i].scan_id)) return true;
  }
  return false;
}

/** The pushed events held for this answer that say more than it: a decision where the answer
 *  says pending, or another decision. The answer's own outcomes are shown first, then these. */
function heldDecisions(answers) {
  const said = new Map(answers.map(function (ev) { return [ev.scan_id, ev.status]; }));
  const kept = [];
  held.forEach(function (ev, scanId) {
    if (ev.status !== 'pending' && said.has(scanId) && said.get(scanId) !== ev.status) kept.push(ev);
  });
  held.clear();
  return kept;
}

/** No answer is coming for now (the request failed): the held events are shown as they came. */
function showHeld() {
  const events = Array.from(held.values());
  held.clear();
  events.forEach(function (ev) { handleScan(ev, null); });
}

/** Another tab of this kiosk changed the queue: its new scans join this tab's queue too. */
export function onStorageChange(e) {
  if (e.key === QUEUE_KEY) {
    queue = stored.merged(queue);
    renderSending();
  }
}
