/* The scan queue. A typed scan goes into a localStorage queue before it is sent, and stays
 * there until the kiosk answers; after a reload or in another tab it is sent again with the same
 * scan_id (the kiosk never counts a scan_id twice). At most 3 are on their way; after a failure,
 * one at a time and oldest first, retried with a growing delay. */

import { app } from './app.js';
import { el, setText } from './dom.js';
import { arr, newScanId, num, obj, parseJSON, storageGet, storageSet, str } from './format.js';
import { api, errorMessage } from './api.js';
import { handleScan, outcomesShown, showPending, wasShown } from './outcomes.js';
import { loadState } from './screens.js';
import { ensureAudio } from './sound.js';

const QUEUE_KEY = 'auditstation.kiosk.queue.v1';
const MAX_IN_FLIGHT = 3;
const SCAN_TIMEOUT_MS = 15000;

let queue = loadQueue();
const inFlight = new Set();
let retryTimer = null;
let failures = 0;
let lastLocalScanId = null;   // the scan typed last on this page

function loadQueue() {
  var raw = parseJSON(storageGet(QUEUE_KEY) || '[]');
  return arr(raw).filter(function (i) { return obj(i) && typeof i.identifier === 'string' && typeof i.scan_id === 'string'; });
}

function saveQueue() { storageSet(QUEUE_KEY, JSON.stringify(queue)); }

function removeFromQueue(scanId) {
  // Other tabs may have changed the queue: start from what is stored.
  var stored = loadQueue();
  var known = new Set(queue.map(function (i) { return i.scan_id; }));
  stored.forEach(function (i) { if (!known.has(i.scan_id)) queue.push(i); });
  queue = queue.filter(function (i) { return i.scan_id !== scanId; });
  saveQueue();
  renderSending();
}

export function renderSending() {
  var n = queue.length;
  setText(el.sending, n === 0 ? '' : (n === 1 ? '1 scan sending\u2026' : n + ' scans sending\u2026'));
}

export function submitEntry() {
  var identifier = el.entry.value.trim();
  el.entry.value = '';
  if (!identifier) return;
  var item = { identifier: identifier, scan_id: newScanId(), queued_at: Date.now() };
  queue.push(item);
  saveQueue();               // kept before anything is sent
  lastLocalScanId = item.scan_id;
  renderSending();
  ensureAudio();
  send(item, true);
  pump();
}

/** Sends every queued scan that is not on its way yet. */
export function pump() {
  // After a failure, one at a time and oldest first, so the outcomes come back in order.
  var limit = failures > 0 ? 1 : MAX_IN_FLIGHT;
  for (var i = 0; i < queue.length && inFlight.size < limit; i++) {
    if (!inFlight.has(queue[i].scan_id)) send(queue[i], false);
  }
}

function send(item, fresh) {
  if (inFlight.has(item.scan_id)) return;
  if (inFlight.size >= MAX_IN_FLIGHT && !fresh) return;
  inFlight.add(item.scan_id);
  var serialAtSend = outcomesShown();
  var pendingTimer = setTimeout(function () {
    if (item.scan_id === lastLocalScanId && outcomesShown() === serialAtSend && !wasShown(item.scan_id) && app.screen === 'scan') {
      showPending(item, 'Waiting for the kiosk\u2026');
    }
  }, 400);
  api('POST', '/api/scan', { identifier: item.identifier, scan_id: item.scan_id }, SCAN_TIMEOUT_MS).then(function (res) {
    clearTimeout(pendingTimer);
    inFlight.delete(item.scan_id);
    var s = res.status;
    if (s >= 200 && s < 300) {
      failures = 0;
      removeFromQueue(item.scan_id);
      var ev = obj(res.data) || { kind: 'result', status: 'unknown', message: '' };
      if (!ev.scan_id) ev.scan_id = item.scan_id;
      if (ev.identifier === undefined || ev.identifier === null) ev.identifier = item.identifier;
      handleScan(ev, { sound: Date.now() - num(item.queued_at) < 10000 });
      pump();
    } else if (s === 401 || s === 408 || s === 429 || s >= 500) {
      // Not decided: keep it and try again (after the PIN, or when the store is back).
      failed(item, errorMessage(res, 'The kiosk could not record it yet'));
    } else {
      failures = 0;
      removeFromQueue(item.scan_id);
      var d = obj(res.data) || {};
      handleScan({
        kind: 'rejected', scan_id: item.scan_id, identifier: item.identifier,
        error: str(d.error || ('HTTP_' + s)), message: errorMessage(res, 'The kiosk refused this scan'),
        source: 'manual', user: app.state && app.state.user, at: new Date().toISOString()
      }, { sound: true });
      if (d.error === 'AUDIT_ENDED' || d.error === 'NO_ACTIVE_AUDIT') loadState();
      pump();
    }
  }, function () {
    clearTimeout(pendingTimer);
    inFlight.delete(item.scan_id);
    failed(item, 'The kiosk service is not responding.');
  });
}

function failed(item, message) {
  failures++;
  if (item.scan_id === lastLocalScanId && !wasShown(item.scan_id) && app.screen === 'scan') showPending(item, message);
  if (!retryTimer) {
    var delay = Math.min(10000, 500 * Math.pow(2, Math.min(failures - 1, 5)));
    retryTimer = setTimeout(function () { retryTimer = null; pump(); }, delay);
  }
}

/** Another tab of this kiosk changed the queue: its new scans join this tab's queue too. */
export function onStorageChange(e) {
  if (e.key === QUEUE_KEY) {
    var known = new Set(queue.map(function (i) { return i.scan_id; }));
    loadQueue().forEach(function (i) { if (!known.has(i.scan_id)) queue.push(i); });
    renderSending();
  }
}
