/* The page's links: the pushed events from the kiosk (EventSource on /api/events: state, scan,
 * progress, outlines), the "kiosk service not responding" banner when that stream is lost, and
 * the top bar's badge of the station's link to the server (online, offline, standalone). */

import { app } from './app.js';
import { setText } from './elements.js';
import { el } from './dom.js';
import { fmtInt, fmtTime, num, obj, parseJSON, plural, str } from './format.js';
import { drawOutlines, stopPreview } from './camera.js';
import { scheduleLists } from './lists.js';
import { handleScan, handleVoid } from './outcomes.js';
import { applyProgress } from './progress.js';
import { markPhoto } from './recent.js';
import { pump, showPushed } from './scanqueue.js';
import { emit } from './bus.js';

let shownPending = null;

export function renderConnection() {
  const c = obj(app.state && app.state.connection) || {};
  const st = c.state === 'online' || c.state === 'offline' ? c.state : 'standalone';
  el.connection.setAttribute('data-state', st);
  const text = st === 'online' ? '\u25CF Online'
    : st === 'offline' ? '\u25B2 Offline \u00B7 scans kept'
      : '\u25A0 Standalone';
  setText(el.connection, text);
  el.connection.title = st === 'offline'
    ? 'The server cannot be reached' + (c.last_error ? ' (' + str(c.last_error) + ')' : '') + ': scans are kept on this station and sent when it is back'
    : st === 'online' ? 'Connected to ' + str(c.server || 'the server') : 'This PC keeps the audit';
  if (st === 'standalone') {
    el.pending.hidden = true;
    el.lastSync.hidden = true;
  } else {
    const n = num(c.pending_scans);
    // Scans of this audit that the server refused: never "all synced" while there are some.
    const refused = num(c.audit_refused_scans);
    el.pending.hidden = false;
    let words = n === 0 ? (refused ? '' : 'all synced') : fmtInt(n) + ' to sync';
    if (refused) words += (words ? ' \u00B7 ' : '') + plural(refused, 'scan', 'scans') + ' refused by the server';
    setText(el.pending, words);
    el.pending.title = (n === 0 ? 'No scans wait for the server' : plural(n, 'scan waits', 'scans wait') + ' in this station\u2019s outbox for the server') +
      (refused ? '; ' + plural(refused, 'scan', 'scans') + ' made here the server did not take: they do not count in the audit' : '');
    el.pending.setAttribute('data-count', String(n));
    el.pending.setAttribute('data-refused', String(refused));
    // The lists come from the server: when scans reach it (or new ones wait), they change.
    if (shownPending !== null && shownPending !== n && app.screen === 'scan') scheduleLists(300);
    shownPending = n;
    // Nothing sent and nothing waiting (a kiosk that has not scanned yet): "all synced" says it all.
    el.lastSync.hidden = !c.last_sync_at && n === 0;
    setText(el.lastSync, c.last_sync_at ? 'synced ' + fmtTime(c.last_sync_at) : 'not synced yet');
    el.lastSync.title = c.last_sync_at ? str(c.last_sync_at) : '';
  }
}

let events = null;
let eventsRetry = null;
let lostTimer = null;
let eventsFailed = false;

export function openEvents() {
  if (events || !window.EventSource) return;
  clearTimeout(eventsRetry);
  let es;
  try { es = new EventSource('/api/events'); } catch (e) { eventsRetry = setTimeout(openEvents, 3000); return; }
  events = es;
  es.addEventListener('open', function () {
    if (events !== es) return;
    clearTimeout(lostTimer);
    lostTimer = null;
    setServiceLost(false);
    if (eventsFailed) {
      eventsFailed = false;
      // The kiosk may have restarted: the preview stream is gone too. The state event that
      // opens the stream starts it again.
      stopPreview();
      // A kiosk started again over a new database counts its revisions anew: the next reading
      // it gives is taken whatever its revision.
      if (app.progress) app.progress.revision = undefined;
      emit('reload');
      pump();
    }
  });
  es.addEventListener('error', function () {
    if (events !== es) return;
    eventsFailed = true;
    if (!lostTimer) lostTimer = setTimeout(function () { lostTimer = null; setServiceLost(true); }, 3000);
    if (es.readyState === 2) {
      // The browser gave up (the kiosk answered with an error): start again ourselves.
      es.close();
      events = null;
      eventsRetry = setTimeout(function () { emit('reload'); openEvents(); }, 3000);
    }
  });
  es.addEventListener('state', function (e) { const d = parseJSON(e.data); if (d) emit('state', d); });
  es.addEventListener('scan', function (e) {
    const d = obj(parseJSON(e.data));
    if (d && showPushed(d)) handleScan(d, null);
  });
  es.addEventListener('progress', function (e) {
    const d = obj(parseJSON(e.data));
    if (!d) return;
    const audit = obj(app.state && app.state.audit);
    if (audit && d.audit_id === audit.id) {
      applyProgress(d.audit_id, d.progress);
      if (app.screen === 'scan') scheduleLists(300);
    }
  });
  es.addEventListener('outlines', function (e) { drawOutlines(parseJSON(e.data)); });
  es.addEventListener('void', function (e) { handleVoid(parseJSON(e.data)); });
  es.addEventListener('command', function (e) {
    const d = obj(parseJSON(e.data));
    if (d && d.command === 'undo') emit('undo-command');
  });
  es.addEventListener('photo', function (e) {
    const d = obj(parseJSON(e.data));
    if (!d) return;
    markPhoto(str(d.scan_id));
    if (app.screen === 'scan') scheduleLists(300);
  });
}

export function closeEvents() {
  clearTimeout(eventsRetry);
  if (events) { events.close(); events = null; }
  clearTimeout(lostTimer);
  lostTimer = null;
  setServiceLost(false);
}

function setServiceLost(lost) {
  el.serviceStatus.hidden = !lost;
  document.body.setAttribute('data-service', lost ? 'lost' : 'ok');
}
