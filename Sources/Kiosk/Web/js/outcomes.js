/* The outcome of each scan: the big outcome box (found, already scanned, unexpected, unknown,
 * not recorded, pending) with its sound, the words for each status and reason, and the
 * window.kiosk hooks (outcomes, lastOutcomeAt) that the browser tests and the latency benchmark
 * read. handleScan takes every scan from the kiosk, answered or pushed. */

import { app } from './app.js';
import { el, setText } from './dom.js';
import { fmtTime, obj, str } from './format.js';
import { scheduleLists } from './lists.js';
import { applyProgress } from './progress.js';
import { mergeRecent } from './recent.js';
import { playSound } from './sound.js';
import { startMessage } from './start.js';

const OUTCOME_LOG_LIMIT = 5000;

export const STATUS = {
  found_expected: { symbol: '\u2714', title: 'FOUND', word: 'Found' },
  already_scanned: { symbol: '\u21BA', title: 'ALREADY SCANNED', word: 'Already scanned' },
  unexpected: { symbol: '\u26A0', title: 'UNEXPECTED', word: 'Unexpected' },
  unknown: { symbol: '?', title: 'UNKNOWN TAG', word: 'Unknown tag' },
  rejected: { symbol: '\u2716', title: 'NOT RECORDED', word: 'Not recorded' },
  pending: { symbol: '\u2026', title: 'SENDING\u2026', word: 'Sending' },
  // A connected station's scan of a tag outside its copy: the server decides it.
  awaiting: { symbol: '\u25F7', title: 'PENDING', word: 'Pending' },
  idle: { symbol: '\u25B8', title: 'READY', word: 'Ready' }
};

export const REASONS = {
  other_country: 'Registered in another country',
  archived: 'Archived asset: not expected in this audit',
  disposed: 'Disposed asset: not expected in this audit',
  not_in_expected_set: 'Not in the expected set when this audit started',
  unknown: 'No asset has this tag or serial number'
};

// Hooks for browser tests and the latency benchmark.
const hooks = window.kiosk = window.kiosk || {};
hooks.lastOutcomeAt = null;
hooks.outcomes = [];

const shown = new Set();     // scan_ids whose outcome has been shown
const shownOrder = [];
let outcomeSerial = 0;       // increases with every outcome rendered

export function statusOf(ev) {
  if (ev.kind === 'rejected') return 'rejected';
  if (ev.status === 'pending') return 'awaiting';
  return STATUS[ev.status] && ev.status !== 'pending' && ev.status !== 'idle' && ev.status !== 'rejected' ? ev.status : 'unknown';
}

export function reasonText(ev) {
  var reason = str(ev.reason);
  if (!reason || !REASONS[reason]) return '';
  var text = REASONS[reason];
  var asset = obj(ev.asset);
  if (reason === 'other_country' && asset && asset.country) text += ' (' + str(asset.country) + ')';
  return text;
}

function firstScanText(ev, verb) {
  var f = obj(ev.first_scan);
  if (!f) return '';
  var parts = [verb];
  if (f.user) parts.push('by ' + str(f.user));
  if (f.station) parts.push('at ' + str(f.station));
  var t = f.scanned_at ? fmtTime(f.scanned_at) : '';
  return parts.join(' ') + (t ? ', ' + t : '');
}

export function assetName(ev) {
  var asset = obj(ev.asset);
  if (!asset) return '';
  var name = str(asset.name);
  if (asset.model && name.indexOf(str(asset.model)) < 0) name += (name ? ' \u00B7 ' : '') + str(asset.model);
  return name;
}

function recordOutcome(scanId, identifier, status) {
  var at = (performance.timeOrigin || Date.now() - performance.now()) + performance.now();
  hooks.lastOutcomeAt = at;
  hooks.outcomes.push({ scan_id: scanId || null, identifier: identifier === undefined ? null : identifier, status: status, at: at });
  if (hooks.outcomes.length > OUTCOME_LOG_LIMIT) hooks.outcomes.splice(0, hooks.outcomes.length - OUTCOME_LOG_LIMIT);
}

function markShown(scanId) {
  if (!scanId || shown.has(scanId)) return;
  shown.add(scanId);
  shownOrder.push(scanId);
  if (shownOrder.length > 2000) shown.delete(shownOrder.shift());
}

/** Puts one ScanEvent in the big outcome box, with its sound. */
function showOutcome(ev, options) {
  options = options || {};
  var status = statusOf(ev);
  var look = STATUS[status];
  var identifier = ev.identifier === null || ev.identifier === undefined ? '' : str(ev.identifier);
  var name = assetName(ev);
  var info = '';
  if (status === 'already_scanned') info = firstScanText(ev, 'First scanned') || 'Scanned before in this audit';
  else if (status === 'unexpected') info = reasonText(ev) || 'Not expected in this audit';
  else if (status === 'unknown') info = firstScanText(ev, 'Already recorded') || 'No asset has this tag or serial number';
  else if (status === 'rejected') info = 'Nothing was stored for this scan.';
  else if (status === 'awaiting') info = 'Not in this station\u2019s copy: the server decides, and the outcome replaces this one.';
  var message = str(ev.message);
  if (ev.pending === true && status !== 'rejected') message += (message ? ' \u2014 ' : '') + 'Decided here; waiting to sync with the server.';

  el.outcome.setAttribute('data-status', status);
  el.outcome.setAttribute('data-scan-id', str(ev.scan_id));
  setText(el.outcomeSymbol, look.symbol);
  setText(el.outcomeTitle, look.title);
  setText(el.outcomeDetail, identifier ? (name ? identifier + ' \u2014 ' + name : identifier) : name);
  el.outcomeDetail.title = identifier;
  setText(el.outcomeInfo, info);
  setText(el.outcomeMessage, message);
  el.outcome.classList.remove('flash');
  void el.outcome.offsetWidth;
  el.outcome.classList.add('flash');
  outcomeSerial++;
  markShown(ev.scan_id);
  recordOutcome(ev.scan_id, ev.identifier === undefined ? null : ev.identifier, status);
  if (options.sound !== false) playSound(status);
}

export function showPending(item, text) {
  el.outcome.setAttribute('data-status', 'pending');
  el.outcome.setAttribute('data-scan-id', item.scan_id);
  setText(el.outcomeSymbol, STATUS.pending.symbol);
  setText(el.outcomeTitle, STATUS.pending.title);
  setText(el.outcomeDetail, item.identifier);
  setText(el.outcomeInfo, 'Kept on this screen: it is recorded as soon as the kiosk answers.');
  setText(el.outcomeMessage, text || 'Keep scanning.');
}

export function showIdle() {
  el.outcome.setAttribute('data-status', 'idle');
  el.outcome.removeAttribute('data-scan-id');
  setText(el.outcomeSymbol, STATUS.idle.symbol);
  setText(el.outcomeTitle, STATUS.idle.title);
  setText(el.outcomeDetail, 'Hold a tag up to the camera, or type or scan it below.');
  setText(el.outcomeInfo, '');
  setText(el.outcomeMessage, '');
}

/** A scan from the kiosk: a POST answer or a pushed `scan` event. */
export function handleScan(ev, fromPost) {
  ev = obj(ev);
  if (!ev) return;
  var audit = obj(app.state && app.state.audit);
  if (ev.kind !== 'rejected' && ev.audit_id && audit && ev.audit_id !== audit.id) return;
  if (ev.kind !== 'rejected' && ev.audit_id) applyProgress(ev.audit_id, ev.progress, false);
  mergeRecent([ev], false);
  if (ev.scan_id && shown.has(ev.scan_id)) {
    // The server decided a scan shown pending: its outcome replaces it where it is shown.
    if (app.screen === 'scan' && ev.status !== 'pending' && el.outcome.getAttribute('data-scan-id') === str(ev.scan_id)) showOutcome(ev, { sound: false });
    return;
  }
  if (app.screen === 'scan') {
    showOutcome(ev, { sound: fromPost ? fromPost.sound : true });
    scheduleLists(700);
  } else if (app.screen === 'start' && ev.kind === 'rejected') {
    startMessage('\u2716 ' + (ev.identifier ? str(ev.identifier) + ': ' : '') + str(ev.message));
  }
}

/** Whether this scan's outcome was shown (the last 2000 scans are remembered). */
export function wasShown(scanId) { return shown.has(scanId); }

/** How many outcomes were shown so far: a scan whose number moved on was overtaken. */
export function outcomesShown() { return outcomeSerial; }
