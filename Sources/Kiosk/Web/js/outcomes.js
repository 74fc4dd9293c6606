/* The outcome of each scan: the big outcome box (found, misplaced, already scanned, unexpected,
 * unknown, not recorded, a location label, pending) with its sound, the words for each status
 * and reason, and the window.kiosk hooks (outcomes, lastOutcomeAt) that the browser tests and
 * the latency benchmark read. handleScan takes every scan from the kiosk, answered or pushed,
 * in the order they were scanned.
 *
 * Nothing is missed: a problem (unexpected, unknown, misplaced, not recorded) that a newer
 * outcome replaces within 3 s moves to the stack beside the box and stays there until 6 s after
 * it was first shown, so a FOUND right after it cannot hide it. After 8 s without a scan the
 * box says READY again.
 *
 * Each outcome stays in the box at least 600 ms, so a fast burst cannot flash one (an ALREADY
 * SCANNED) past the eye: a newer outcome waits its turn, in order, unless it is a problem, which
 * is shown at once. A plain FOUND that newer outcomes wait behind is passed over (its numbers and
 * its line in Last scans are there already), so the box never falls behind a burst of FOUNDs. */

import { app } from './app.js';
import { emit } from './bus.js';
import { make, setText } from './elements.js';
import { el } from './dom.js';
import { obj, str } from './format.js';
import { scheduleLists } from './lists.js';
import { applyProgress } from './progress.js';
import { markVoided, mergeRecent } from './recent.js';
import { renderLocation } from './place.js';
import { playSound } from './sound.js';
import { STATUS, assetName, firstScanText, reasonText, statusOf } from './words.js';

const OUTCOME_LOG_LIMIT = 5000;

/** The outcomes a person must look at: they stay at least 3 s, or stack. */
export const PROBLEMS = ['unexpected', 'unknown', 'misplaced', 'rejected'];
const HOLD_MS = 3000;        // a problem in the box at least this long before it may leave it unstacked
const STACK_MS = 6000;       // a stacked problem stays until this long after it was first shown
const STACK_SHOWN = 5;       // problems listed in the stack at most (the rest are counted)
const STACK_SHOWN_SHORT = 2; // on a short screen (1280x720, 1024x768), so Last scans keeps its rows

function stackShown() {
  return window.innerHeight <= 800 ? STACK_SHOWN_SHORT : STACK_SHOWN;
}
const IDLE_MS = 8000;        // no scan for this long: READY again
const MIN_SHOWN_MS = 600;    // an outcome stays in the box at least this long, unless a problem replaces it
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

// Hooks for browser tests and the latency benchmark.
const hooks = window.kiosk = window.kiosk || {};
hooks.lastOutcomeAt = null;
hooks.outcomes = [];

const shown = new Set();     // scan_ids whose outcome has been shown
const shownOrder = [];
let outcomeSerial = 0;       // increases with every outcome rendered
let current = null;          // {ev, status, at} in the box
let stack = [];              // [{ev, status, at, node}] problems moved out of the box, newest first
let idleTimer = null;
let waiting = [];            // [{ev, options}] outcomes due while the box's own has not stayed its 600 ms
let waitTimer = null;

export function recordOutcome(scanId, identifier, status, passed) {
  const at = (performance.timeOrigin || Date.now() - performance.now()) + performance.now();
  hooks.lastOutcomeAt = at;
  const entry = { scan_id: scanId || null, identifier: identifier === undefined ? null : identifier, status: status, at: at };
  if (passed) entry.passed = true;
  hooks.outcomes.push(entry);
  if (hooks.outcomes.length > OUTCOME_LOG_LIMIT) hooks.outcomes.splice(0, hooks.outcomes.length - OUTCOME_LOG_LIMIT);
}

function markShown(scanId) {
  if (!scanId || shown.has(scanId)) return;
  shown.add(scanId);
  shownOrder.push(scanId);
  if (shownOrder.length > 2000) shown.delete(shownOrder.shift());
}

/** An outcome for the box: shown at once when the box's own has stayed its 600 ms (or the box
 *  says READY or SENDING…), or when it is a problem; otherwise it waits its turn, in order. */
function present(ev, options) {
  markShown(ev.scan_id);     // taken: a pushed copy or the answer never shows it twice
  if (PROBLEMS.indexOf(statusOf(ev)) >= 0) {
    showAtOnce(ev, options);
    return;
  }
  waiting.push({ ev: ev, options: options });
  showWaiting();
}

/** A problem: shown now. Outcomes still waiting are older, and it overtakes them (they are
 *  counted and in Last scans). */
function showAtOnce(ev, options) {
  clearTimeout(waitTimer);
  waitTimer = null;
  waiting.splice(0).forEach(passOver);
  showOutcome(ev, options);
}

/** Shows the waiting outcomes in order, each once the one before has stayed its 600 ms. */
function showWaiting() {
  clearTimeout(waitTimer);
  waitTimer = null;
  while (waiting.length) {
    if (app.screen !== 'scan') { waiting.splice(0).forEach(passOver); return; }
    const left = current ? current.at + MIN_SHOWN_MS - Date.now() : 0;
    if (left > 0) {
      waitTimer = setTimeout(showWaiting, left);
      return;
    }
    const next = waiting.shift();
    if (waiting.length && statusOf(next.ev) === 'found_expected') passOver(next);
    else showOutcome(next.ev, next.options);
  }
}

/** A waiting outcome that newer ones overtook: noted for the hooks, never drawn. */
function passOver(item) {
  recordOutcome(item.ev.scan_id, item.ev.identifier === undefined ? null : item.ev.identifier, statusOf(item.ev), true);
}

/** The server's word on a scan whose outcome still waits its turn: a refusal is a problem and
 *  is shown at once (the outcome it overtakes is noted as passed over); a decision on a scan
 *  shown pending waits in its place instead. Answers whether the scan was waiting. */
function settleWaiting(ev) {
  for (let i = 0; i < waiting.length; i++) {
    if (waiting[i].ev.scan_id !== ev.scan_id) continue;
    if (ev.kind === 'rejected') showAtOnce(ev, { sound: true });
    else waiting[i].ev = ev;
    return true;
  }
  return false;
}

/** Puts one ScanEvent in the big outcome box, with its sound. */
function showOutcome(ev, options) {
  options = options || {};
  const status = statusOf(ev);
  const look = STATUS[status];
  const identifier = ev.identifier === null || ev.identifier === undefined ? '' : str(ev.identifier);
  const name = assetName(ev);
  let info = '';
  if (status === 'already_scanned') info = firstScanText(ev, 'First scanned') || 'Scanned before in this audit';
  else if (status === 'misplaced') info = misplacedText(ev);
  else if (status === 'location') info = 'Assets registered elsewhere that are scanned here are counted as found, and shown as misplaced.';
  else if (status === 'unexpected') info = reasonText(ev) || 'Not expected in this audit';
  else if (status === 'unknown') info = firstScanText(ev, 'Already recorded') || 'No asset has this tag or serial number';
  if (status === 'unknown' && ev.did_you_mean) info = 'Did you mean ' + str(ev.did_you_mean) + '? (Caps Lock?) \u2014 recorded as scanned.';
  else if (status === 'rejected') info = 'Nothing was stored for this scan.';
  else if (status === 'awaiting' && ev.did_you_mean) info = 'Did you mean ' + str(ev.did_you_mean) + '? (Caps Lock?) \u2014 the server decides.';
  else if (status === 'awaiting') info = 'Not in this station\u2019s copy: the server decides, and the outcome replaces this one.';
  const message = messageOf(ev, status);

  stackCurrent();
  el.outcome.setAttribute('data-status', status);
  el.outcome.setAttribute('data-scan-id', str(ev.scan_id));
  setText(el.outcomeSymbol, look.symbol);
  setText(el.outcomeTitle, status === 'location' ? 'NOW AT ' + str(ev.location).toUpperCase() : look.title);
  if (status === 'location') setText(el.outcomeDetail, 'Location label ' + identifier);
  else setText(el.outcomeDetail, identifier ? (name ? identifier + ' \u2014 ' + name : identifier) : name);
  el.outcomeDetail.title = identifier;
  setText(el.outcomeInfo, info);
  setText(el.outcomeMessage, message);
  // A short pulse on each new outcome, without laying the page out again on the spot (a burst
  // of 20 answers would otherwise lay it out 20 times over).
  if (el.outcome.animate && !reducedMotion.matches) {
    el.outcome.animate([{ transform: 'scale(1.015)' }, { transform: 'scale(1)' }], { duration: 350, easing: 'ease-out' });
  }
  outcomeSerial++;
  current = { ev: ev, status: status, at: Date.now() };
  markShown(ev.scan_id);
  recordOutcome(ev.scan_id, ev.identifier === undefined ? null : ev.identifier, status);
  if (options.sound !== false) playSound(status);
  armIdle();
}

/** The box's last line: the outcome's message, and whether it still waits to reach the server. */
function messageOf(ev, status) {
  const message = status === 'location' ? '' : str(ev.message);
  if (ev.pending !== true || status === 'rejected') return message;
  return message + (message ? ' \u2014 ' : '') + 'Decided here; waiting to sync with the server.';
}

/** The kiosk's last scans say which scans left the outbox: the outcome in the box, decided
 *  here and now on the server, stops saying that it waits to sync. */
export function settleShown(recentScans) {
  if (!current || current.ev.pending !== true) return;
  const id = current.ev.scan_id;
  const settled = recentScans.some(function (e) { return obj(e) && e.scan_id === id && e.pending !== true; });
  if (!settled || el.outcome.getAttribute('data-scan-id') !== str(id)) return;
  current.ev = Object.assign({}, current.ev, { pending: false });
  setText(el.outcomeMessage, messageOf(current.ev, current.status));
}

function misplacedText(ev) {
  const registered = str(ev.registered_location || (obj(ev.asset) && ev.asset.location));
  const found = str(ev.found_location);
  let text = 'Found, in the wrong place: registered at ' + (registered || 'another location');
  if (found) text += ', found at ' + found;
  return text + '.';
}

/** The problem in the box leaves it before its 3 s: it goes on the stack beside the box. */
function stackCurrent() {
  const c = current;
  current = null;
  if (!c || PROBLEMS.indexOf(c.status) < 0 || Date.now() - c.at >= HOLD_MS) return;
  stack.unshift(c);
  setTimeout(function () { unstack(c); }, Math.max(0, c.at + STACK_MS - Date.now()));
  renderStack();
}

function unstack(item) {
  const i = stack.indexOf(item);
  if (i < 0) return;
  stack.splice(i, 1);
  renderStack();
}

function renderStack() {
  const list = el.problemStack;
  list.textContent = '';
  const shown = stackShown();
  stack.slice(0, shown).forEach(function (c) {
    const look = STATUS[c.status];
    const li = make('li', 'stacked');
    li.setAttribute('data-status', c.status);
    if (c.ev.scan_id) li.setAttribute('data-scan-id', str(c.ev.scan_id));
    li.appendChild(make('span', 'stacked-symbol', look.symbol));
    li.appendChild(make('span', 'stacked-title', look.title));
    li.appendChild(make('span', 'stacked-id', str(c.ev.identifier)));
    list.appendChild(li);
  });
  if (stack.length > shown) {
    list.appendChild(make('li', 'stacked-more', '+ ' + (stack.length - shown) + ' more: see Last scans'));
  }
  el.problemStack.hidden = stack.length === 0;
}

function armIdle() {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(function () { if (app.screen === 'scan') showIdle(); }, IDLE_MS);
}

export function showPending(item, text) {
  stackCurrent();
  el.outcome.setAttribute('data-status', 'pending');
  el.outcome.setAttribute('data-scan-id', item.scan_id);
  setText(el.outcomeSymbol, STATUS.pending.symbol);
  setText(el.outcomeTitle, STATUS.pending.title);
  setText(el.outcomeDetail, item.identifier);
  setText(el.outcomeInfo, 'Kept on this screen: it is recorded as soon as the kiosk answers.');
  setText(el.outcomeMessage, text || 'Keep scanning.');
}

export function showIdle() {
  clearTimeout(idleTimer);
  stackCurrent();
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
  const audit = obj(app.state && app.state.audit);
  if (ev.kind !== 'rejected' && ev.audit_id && audit && ev.audit_id !== audit.id) return;
  // A pushed event showed this scan already: it is the answer's own news or newer (the server's
  // decision or refusal), so the answer, made before it, changes nothing.
  if (fromPost && ev.scan_id && shown.has(ev.scan_id)) return;
  if (ev.kind === 'result' && ev.audit_id) applyProgress(ev.audit_id, ev.progress);
  // A scan the server refused no longer counts: its numbers (a newer revision) replace the page's, though lower.
  if (ev.kind === 'rejected' && ev.audit_id && obj(ev.progress)) {
    applyProgress(ev.audit_id, ev.progress);
    if (app.screen === 'scan') scheduleLists(300);
  }
  if (ev.kind === 'location' && app.state) { app.state.location = ev.location; renderLocation(); }
  mergeRecent([ev], false);
  // An accessory's tag: the page asks how many (count.js; each scan is asked about once).
  if (app.screen === 'scan' && ev.kind === 'result' && ev.status === 'accessory_counted') emit('accessory-counted', ev);
  if (ev.scan_id && ev.status !== 'pending' && settleWaiting(ev)) return;
  if (ev.scan_id && shown.has(ev.scan_id)) {
    // The server decided a scan shown pending, or refused one (it is not in the server's
    // audit): that replaces it where it is shown, with the problem's sound for a refusal.
    const showing = el.outcome.getAttribute('data-status');
    const refused = ev.kind === 'rejected';
    if (app.screen === 'scan' && ev.status !== 'pending' && (refused || showing === 'awaiting' || showing === 'pending') &&
        el.outcome.getAttribute('data-scan-id') === str(ev.scan_id)) showOutcome(ev, { sound: refused });
    return;
  }
  if (app.screen === 'scan') {
    present(ev, { sound: fromPost ? fromPost.sound : true });
    scheduleLists(300);
  } else if ((app.screen === 'start' || app.screen === 'summary') && ev.kind === 'rejected') {
    // The camera read a tag while no audit runs here.
    notRecorded(str(ev.identifier), str(ev.message));
  }
}

/** A scan undone here or on another page of this kiosk: struck through, numbers corrected. */
export function handleVoid(d) {
  d = obj(d);
  if (!d) return;
  const audit = obj(app.state && app.state.audit);
  if (!audit || d.audit_id !== audit.id) return;
  applyProgress(d.audit_id, d.progress);
  markVoided(str(d.scan_id));
  // The box no longer shows an outcome that counts for nothing.
  if (el.outcome.getAttribute('data-scan-id') === str(d.scan_id)) showIdle();
  if (app.screen === 'scan') scheduleLists(0);
}

/** Whether this scan's outcome was shown (the last 2000 scans are remembered). */
export function wasShown(scanId) { return shown.has(scanId); }

/** How many outcomes were shown so far: a scan whose number moved on was overtaken. */
export function outcomesShown() { return outcomeSerial; }

const ALARM_MS = 6000;
let alarmTimer = null;

/** The big NOT RECORDED of a scan that no audit could take, with its sound. */
export function notRecorded(text, why) {
  const box = el.gunAlarm;
  box.hidden = false;
  box.setAttribute('data-status', 'rejected');
  setText(el.gunAlarmSymbol, STATUS.rejected.symbol);
  setText(el.gunAlarmTitle, STATUS.rejected.title);
  setText(el.gunAlarmTag, str(text));
  setText(el.gunAlarmWhy, why);
  recordOutcome(null, text, 'rejected');
  playSound('rejected');
  clearTimeout(alarmTimer);
  alarmTimer = setTimeout(hideNotRecorded, ALARM_MS);
}

export function hideNotRecorded() {
  clearTimeout(alarmTimer);
  if (el.gunAlarm) el.gunAlarm.hidden = true;
}
