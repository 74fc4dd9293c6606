/* AuditStation's phone page (/scan): log in, pick the running audit, and walk it with the phone's
 * camera, a Bluetooth gun or the keyboard. Plain JavaScript modules, no build step.
 *
 *   server.js   the server's API (the login in sessionStorage)
 *   camera.js   the camera, its frames to the server's decoder, two frames in a row make a scan
 *   outcome.js  the outcome box, sounds, vibration, the numbers and the last scans
 *   phone.js    the screens, the audit, recording scans and undoing one
 * Shared with the kiosk (Sources/PageScripts): format.js, words.js (the outcome words),
 * sound.js (the outcome sounds), burst.js (what a gun's burst is), queue.js (the scan queue,
 * kept in localStorage until the server answered each scan). */

import { arr, fromFullWidth, isUndoCommand, newScanId, obj, storageGet, storageSet, str, parseJSON } from './format.js';
import { GunKeys, typedKeys } from './burst.js';
import { call, forget, logIn, logOut, session, useKey } from './server.js';
import { Camera, keepPhoto } from './camera.js';
import { ScanQueue } from './queue.js';
import { $, make } from './elements.js';
import { recentLimit, renderNumbers, renderRecent, show, showResult } from './outcome.js';
import { askHowMany, bindCount, countAnswered, countBody, scannedWhileAsking } from './count.js';
import { ensureAudio, isMuted, playSound, setMuted } from './sound.js';
import { statusOf } from './words.js';

const DEVICE_KEY = 'auditstation.scan.device';
const AUDIT_KEY = 'auditstation.scan.audit';
const MUTE_KEY = 'auditstation.scan.muted';
const POLL_MS = 5000;
const EVIDENCE = ['unexpected', 'unknown', 'misplaced'];

const state = { screen: 'loading', audit: null, progress: null, location: null, locations: [], recent: [], pollTimer: null };
const frames = new Map();        // scan_id -> the camera frame it was read in (for its evidence photo)
const hooks = window.scanPage = window.scanPage || {};
hooks.state = state;

const queue = new ScanQueue('auditstation.scan.queue', sendScan, {
  answered: answered, refused: refused, changed: renderLink, needsLogin: function () { showScreen('login'); }
});
const camera = new Camera($('video'), function (text, frame) { record(text, 'camera', frame); }, cameraState);

function showScreen(name) {
  state.screen = name;
  document.querySelectorAll('.screen').forEach(function (s) { s.hidden = s.getAttribute('data-screen') !== name; });
  if (name !== 'scan') camera.stop();
  if (name === 'login') setTimeout(function () { $('login-email').focus(); }, 0);
}

// MARK: login, the phone's name, the audit

async function begin() {
  if (!session()) { showScreen('login'); return; }
  if (!storageGet(DEVICE_KEY)) { showScreen('device'); $('device-name').focus(); return; }
  await chooseAudit();
}

async function chooseAudit() {
  $('audits-note').textContent = 'Looking for running audits…';
  const res = await call('GET', '/api/v1/audit/status', null, 10000);
  const kept = obj(parseJSON(storageGet(AUDIT_KEY) || 'null'));
  if (res.status === 401) { showScreen('login'); return; }
  if (!res.ok) {
    // No server: the audit this phone scanned into is opened, and its scans wait here.
    if (kept && kept.id) { openAudit(kept); return; }
    showScreen('audits');
    $('audits-note').textContent = '\u26A0 ' + res.message + '. Look again once the phone is on the Wi-Fi.';
    return;
  }
  const data = obj(res.data) || {};
  const running = arr(data.audits).length ? arr(data.audits) : (obj(data.audit) ? [data.audit] : []);
  const mine = kept && running.find(function (a) { return a.id === kept.id; });
  if (mine) { openAudit(mine); return; }
  if (running.length === 1) { openAudit(running[0]); return; }
  showScreen('audits');
  const list = $('audits-list');
  list.textContent = '';
  $('audits-note').textContent = running.length ? 'Several audits are running. Pick the one you are counting:'
    : 'No audit is running that you may scan. Start one at the kiosk or in the back office, then look again.';
  running.forEach(function (a) {
    const b = make('button', 'choice');
    b.type = 'button';
    b.appendChild(make('strong', null, str(a.country) + (arr(a.locations).length ? ' \u2014 ' + arr(a.locations).join(', ') : '')));
    b.appendChild(make('span', null, str(a.scanned_count) + ' of ' + str(a.total_assets) + ' found \u00B7 started by ' + str(a.started_by)));
    b.addEventListener('click', function () { openAudit(a); });
    const li = make('li');
    li.appendChild(b);
    list.appendChild(li);
  });
}

function openAudit(audit) {
  state.audit = audit;
  storageSet(AUDIT_KEY, JSON.stringify({ id: audit.id, country: audit.country, locations: audit.locations || null }));
  state.location = storageGet(AUDIT_KEY + '.' + audit.id + '.location') || null;
  state.recent = arr(parseJSON(storageGet(recentKey()) || '[]'));
  $('audit-title').textContent = 'Audit of ' + str(audit.country) + (arr(audit.locations).length ? ' \u2014 ' + arr(audit.locations).join(', ') : '');
  const s = session();
  $('who').textContent = (s && obj(s.user) ? str(s.user.name || s.user.email) : '') + ' \u00B7 ' + str(storageGet(DEVICE_KEY));
  renderPlace();
  state.progress = null;
  if (audit.total_assets !== undefined) renderNumbers(state, audit.id, audit);
  renderRecent(state.recent);
  renderUndo();
  show('idle', '', 'Point the camera at a tag, or type or scan one below.', false);
  showScreen('scan');
  renderLink(queue.waiting, queue.offline);
  loadLocations();
  clearInterval(state.pollTimer);
  state.pollTimer = setInterval(poll, POLL_MS);
  queue.resume();
}

function recentKey() { return AUDIT_KEY + '.' + (state.audit ? state.audit.id : '') + '.recent'; }

/** The audit's numbers (other people scan too), and whether it ended. */
async function poll() {
  if (state.screen !== 'scan' || !state.audit) return;
  const id = state.audit.id;
  const res = await call('GET', '/api/v1/audit/' + encodeURIComponent(id), null, 8000);
  if (!state.audit || state.audit.id !== id) return;
  if (res.status === 401) { showScreen('login'); return; }
  const audit = res.ok && obj(res.data) ? obj(res.data.audit) : null;
  if (!audit) { renderLink(queue.waiting, res.status === 0 || queue.offline); return; }
  renderNumbers(state, id, audit);
  if (audit.is_active === false && state.audit.is_active !== false) {
    state.audit.is_active = false;
    camera.stop();
    show('rejected', '', 'This audit has ended. Scans made before its end still count; pick another audit to go on.', true);
  }
}

async function loadLocations() {
  if (!state.audit) return;
  const res = await call('GET', '/api/v1/audit/locations?country=' + encodeURIComponent(state.audit.country), null, 10000);
  state.locations = res.ok && obj(res.data) ? arr(res.data.locations).map(function (l) { return str(obj(l) ? l.location : l); }).filter(Boolean) : [];
}

function renderPlace() { $('place-name').textContent = state.location || 'not set'; }

function setPlace(name) {
  state.location = name || null;
  if (state.audit) storageSet(AUDIT_KEY + '.' + state.audit.id + '.location', state.location || '');
  renderPlace();
}

// MARK: scans

/** A scan: kept in the queue at once, then sent in order. A location label sets where the phone is. */
function record(text, source, frame) {
  text = fromFullWidth(str(text)).trim();
  if (!text || !state.audit) return;
  // The undo command label (`assets labels --command undo`): the first scan opens the undo of
  // the last scan, a second one confirms it. It is never recorded as a tag.
  if (isUndoCommand(text)) {
    if ($('undo-dialog').open) { $('undo-dialog').close('ok'); return; }
    if (lastUndoable()) openUndo();
    else show('rejected', text, 'Nothing to undo yet on this phone.', true, null, 'NOTHING TO UNDO');
    return;
  }
  if (/^LOC:/i.test(text)) {
    const name = text.slice(4).trim();
    const known = state.locations.length === 0 || state.locations.indexOf(name) >= 0;
    if (!name || !known) { show('rejected', text, 'No location of this audit is called \u201C' + name + '\u201D.', true); return; }
    setPlace(name);
    show('location', name, 'Scans from here on are made at ' + name + '.', true);
    return;
  }
  const item = {
    scan_id: newScanId(), identifier: text, audit_id: state.audit.id, scanned_at: new Date().toISOString(), source: source,
    location: state.location, device_name: storageGet(DEVICE_KEY) || 'phone'
  };
  if (frame) frames.set(item.scan_id, frame);
  if (!queue.add(item)) { show('rejected', text, 'This phone could not keep the scan (its storage is full). Scan it again.', true); return; }
  remember({ scan_id: item.scan_id, identifier: text, status: 'pending', at: item.scanned_at, waiting: true });
  if (queue.offline) show('pending', text, 'Not sent yet: kept on this phone, it goes when the server can be reached.', true, item.scan_id, 'KEPT HERE');
  else show('pending', text, 'Sending…', false, item.scan_id);
}

/** A typed count, kept in the queue with the scans (count.js). */
function keepCount(item) {
  if (!queue.add(item)) return false;
  if (queue.offline) show('pending', item.identifier, item.quantity + ' counted here: kept on this phone, it goes when the server can be reached.', true, item.scan_id, 'KEPT HERE');
  return true;
}

function sendScan(item) {
  if (item.kind === 'count') return call('POST', '/api/v1/audit/count', countBody(item), 10000);
  const body = {
    identifier: item.identifier, audit_id: item.audit_id, scan_id: item.scan_id, scanned_at: item.scanned_at,
    source: item.source === 'camera' ? 'camera' : 'manual', device_name: item.device_name
  };
  if (item.location) body.location = item.location;
  return call('POST', '/api/v1/audit/scan', body, 10000);
}

function answered(item, result, first) {
  result = obj(result) || {};
  if (item.kind === 'count') { countAnswered(result); return; }
  if (state.audit && result.audit_id === state.audit.id) renderNumbers(state, state.audit.id, result.progress);
  const status = statusOf(result);
  remember({ scan_id: item.scan_id, identifier: item.identifier, status: status, at: item.scanned_at, name: str(obj(result.asset) && result.asset.name) });
  if (first) showResult(result, true);
  if (first && status === 'unknown') nameByCase(item);
  if (first && result.status === 'accessory_counted') askHowMany(result);
  const frame = frames.get(item.scan_id);
  frames.delete(item.scan_id);
  if (frame && EVIDENCE.indexOf(status) >= 0) keepPhoto(item, frame);
}

/** An unknown tag that an asset's tag or serial matches but for case (a gun with Caps Lock on
 *  types sg-0002): the box and Last scans ask "Did you mean SG-0002?", as the kiosk does. Asked
 *  of the server's asset search after the outcome is shown, so the scan never waits on it. */
async function nameByCase(item) {
  const typed = item.identifier;
  if (!/[A-Za-z]/.test(typed)) return;
  const res = await call('GET', '/api/v2/assets?search=' + encodeURIComponent(typed) + '&per_page=20', null, 5000);
  const upper = function (s) { return str(s).replace(/[a-z]/g, function (c) { return c.toUpperCase(); }); };
  let match = null;
  arr(res.ok && obj(res.data) ? res.data.assets : []).forEach(function (a) {
    [obj(a) && a.asset_tag, obj(a) && a.serial_num].forEach(function (c) {
      if (!match && c && c !== typed && upper(c) === upper(typed)) match = str(c);
    });
  });
  if (!match) return;
  const hint = 'Did you mean ' + match + '? (Caps Lock?)';
  const entry = state.recent.find(function (r) { return r.scan_id === item.scan_id; });
  if (entry) {
    entry.name = hint; // in its place among the last scans
    storageSet(recentKey(), JSON.stringify(state.recent));
    renderRecent(state.recent);
  }
  if ($('outcome').getAttribute('data-scan-id') === str(item.scan_id)) $('outcome-info').textContent = hint + ' \u2014 recorded as scanned.';
}

function refused(item, answer, first) {
  if (item.kind === 'count') {
    if (first) show('rejected', item.identifier, 'Count of ' + item.quantity + ' not set: ' + answer.message, true, item.scan_id, 'COUNT NOT SET');
    return;
  }
  remember({ scan_id: item.scan_id, identifier: item.identifier, status: 'rejected', at: item.scanned_at, name: answer.message });
  frames.delete(item.scan_id);
  if (first) show('rejected', item.identifier, answer.message, true, item.scan_id);
  if (answer.code === 'AUDIT_ENDED' && state.audit) state.audit.is_active = false;
}

function remember(entry) {
  state.recent = state.recent.filter(function (r) { return r.scan_id !== entry.scan_id; });
  state.recent.unshift(entry);
  state.recent = state.recent.slice(0, recentLimit);
  storageSet(recentKey(), JSON.stringify(state.recent));
  renderRecent(state.recent);
  renderUndo();
}

function lastUndoable() {
  return state.recent.find(function (r) { return !r.voided && !r.waiting && r.status !== 'rejected' && r.status !== 'pending'; });
}

function renderUndo() { $('undo').disabled = !lastUndoable(); }

function openUndo() {
  const last = lastUndoable();
  if (!last) return;
  $('undo-title').textContent = 'Undo the scan of ' + last.identifier + '?';
  $('undo-text').textContent = 'It no longer counts in this audit; the trail keeps it, marked undone by you.';
  $('undo-error').textContent = '';
  $('undo-dialog').setAttribute('data-scan-id', last.scan_id);
  // A dialog keeps its last returnValue: an earlier confirmation must not confirm this one when
  // it is closed otherwise (Escape, or a gun's burst).
  $('undo-dialog').returnValue = '';
  $('undo-dialog').showModal();
}

async function confirmUndo() {
  const scanId = $('undo-dialog').getAttribute('data-scan-id');
  const entry = state.recent.find(function (r) { return r.scan_id === scanId; });
  if (!entry || !state.audit) return;
  const res = await call('POST', '/api/v1/audit/scans/' + encodeURIComponent(scanId) + '/void', {
    audit_id: state.audit.id, reason: 'Undone on the phone', void_id: newScanId(), device_name: storageGet(DEVICE_KEY) || 'phone'
  }, 10000);
  if (!res.ok) { show('rejected', entry.identifier, 'Not undone: ' + res.message, true); return; }
  entry.voided = true;
  storageSet(recentKey(), JSON.stringify(state.recent));
  renderRecent(state.recent);
  renderUndo();
  if (obj(res.data)) renderNumbers(state, state.audit.id, res.data.progress);
  show('idle', entry.identifier, 'Undone: it no longer counts.', false);
}

// MARK: the link and the camera

function renderLink(waiting, offline) {
  const link = $('link');
  if (!link) return;
  link.setAttribute('data-state', offline ? 'offline' : waiting > 0 ? 'sending' : 'online');
  link.textContent = offline ? 'Not connected \u2014 scans wait here (' + waiting + ')'
    : waiting > 0 ? 'Sending ' + waiting + '\u2026' : 'Connected';
  if (offline) return;
  const queued = new Set(queue.items().map(function (i) { return i.scan_id; }));
  state.recent.forEach(function (r) { if (r.waiting && !queued.has(r.scan_id)) r.waiting = false; });
}

function cameraState(name, message) {
  $('camera').setAttribute('data-state', name);
  $('camera-note').textContent = message || '';
  $('camera-start').textContent = camera.running ? 'Stop camera' : 'Start camera';
  $('camera-switch').hidden = !camera.canSwitch;
  $('camera-torch').hidden = !camera.canTorch;
}

// MARK: keys: a gun's burst is a scan wherever the focus is

const gun = new GunKeys();

/** Where a screen that cannot take a scan says that a gun's scan was not recorded, and what to do
 *  first. Such a burst is dropped aloud, never kept: no audit is open, and with several running
 *  the phone cannot know which one it was meant for. */
const REFUSED_ON = {
  login: ['login-error', 'log in and open an audit first'],
  device: ['device-error', 'name this phone first (then its audit opens)'],
  audits: ['audits-error', 'pick the audit you are counting first'],
  loading: [null, '']
};

function onKeyDown(e) {
  const scan = gun.keydown(e);
  if (!scan) return;
  // A burst never presses a button or sends a form, on any screen, and its characters come back
  // out of the field they landed in; what was typed there before stays.
  e.preventDefault();
  e.stopPropagation();
  scan.restore();
  const text = scan.tag;
  if (state.screen !== 'scan' || !state.audit) {
    ensureAudio();
    playSound('rejected');
    const refusal = REFUSED_ON[state.screen] || [null, ''];
    if (refusal[0]) $(refusal[0]).textContent = '\u2716 Not recorded: ' + text + ' \u2014 ' + refusal[1] + ', then scan it again.';
    return;
  }
  if ($('undo-dialog').open && !isUndoCommand(text)) $('undo-dialog').close();
  if ($('place-dialog').open) $('place-dialog').close();
  scannedWhileAsking(text);
  record(text, 'manual');
}

function bind() {
  bindCount(function () { return state.location; }, keepCount);
  $('login-form').addEventListener('submit', async function (e) {
    e.preventDefault();
    $('login-error').textContent = '';
    $('login-submit').disabled = true;
    useKey($('login-key').value.trim());
    const res = await logIn($('login-email').value.trim(), $('login-password').value, storageGet(DEVICE_KEY) || 'phone');
    $('login-submit').disabled = false;
    if (!res.ok) { $('login-error').textContent = res.status === 0 ? 'The server cannot be reached.' : res.message; return; }
    $('login-password').value = '';
    await begin();
  });
  $('device-form').addEventListener('submit', function (e) {
    e.preventDefault();
    const name = $('device-name').value.trim();
    if (!name) { $('device-error').textContent = 'Give this phone a name.'; return; }
    storageSet(DEVICE_KEY, name.slice(0, 64));
    begin();
  });
  $('audits-reload').addEventListener('click', chooseAudit);
  $('change-audit').addEventListener('click', function () { storageSet(AUDIT_KEY, 'null'); camera.stop(); state.audit = null; chooseAudit(); });
  $('logout').addEventListener('click', async function () { camera.stop(); await logOut(); forget(); showScreen('login'); });
  $('camera-start').addEventListener('click', function () { ensureAudio(); if (camera.running) { camera.stop(); cameraState('off', ''); } else camera.start(); });
  $('camera-switch').addEventListener('click', function () { camera.switchCamera(); });
  $('camera-torch').addEventListener('click', async function () { $('camera-torch').setAttribute('aria-pressed', String(await camera.toggleTorch())); });
  $('entry-form').addEventListener('submit', function (e) {
    e.preventDefault();
    ensureAudio();
    const value = $('entry').value;
    $('entry').value = '';
    record(value, 'manual');
  });
  $('undo').addEventListener('click', openUndo);
  $('undo-dialog').addEventListener('close', function () { if ($('undo-dialog').returnValue === 'ok') confirmUndo(); });
  $('place').addEventListener('click', function () {
    const select = $('place-select');
    select.textContent = '';
    select.appendChild(make('option', null, 'Not set'));
    select.firstChild.value = '';
    state.locations.forEach(function (l) { const o = make('option', null, l); o.value = l; o.selected = l === state.location; select.appendChild(o); });
    $('place-dialog').returnValue = '';
    $('place-dialog').showModal();
  });
  $('place-dialog').addEventListener('close', function () { if ($('place-dialog').returnValue === 'ok') setPlace($('place-select').value); });
  $('mute').addEventListener('click', function () {
    setMuted(!isMuted());
    storageSet(MUTE_KEY, isMuted() ? '1' : '0');
    renderMute();
  });
  window.addEventListener('keydown', onKeyDown, true);
  window.addEventListener('keypress', typedKeys(onKeyDown), true);
  window.addEventListener('keyup', function (e) { gun.keyup(e); }, true);
  window.addEventListener('online', function () { queue.pump(); });
}

function renderMute() {
  $('mute').setAttribute('aria-pressed', String(isMuted()));
  $('mute').textContent = isMuted() ? 'Sound: off' : 'Sound: on';
}

function init() {
  // The page's files kept on the phone (worker.js): a reload without Wi-Fi still opens it. Only
  // where the browser allows it (HTTPS, or the phone's own loopback).
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register('/scan/sw.js', { scope: '/scan' }).catch(function () { /* the page works without it */ });
  }
  bind();
  setMuted(storageGet(MUTE_KEY) === '1');
  renderMute();
  renderLink(queue.waiting, false);
  begin();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
