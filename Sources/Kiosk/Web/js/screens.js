/* The kiosk's state decides the screen: it is asked for (GET /api/state, retried while the
 * kiosk does not answer) and also pushed; applyState shows the PIN, start, scan or summary
 * screen and renders what belongs to it. Also the top bar (station, audit, who scans). */

import { app } from './app.js';
import { $, make, setText } from './elements.js';
import { el } from './dom.js';
import { arr, fmtTime, obj, str } from './format.js';
import { api, errorMessage } from './api.js';
import { clearOutlines, renderCamera, stopPreview } from './camera.js';
import { closeEvents, openEvents, renderConnection } from './connection.js';
import { askUserIfUnknown } from './dialogs.js';
import { closeDialog } from './dialog.js';
import { renderLocation } from './place.js';
import { focusEntry } from './focus.js';
import { clearLists, scheduleLists } from './lists.js';
import { hideNotRecorded, settleShown, showIdle } from './outcomes.js';
import { applyProgress, forgetPlaces, schedulePlaces } from './progress.js';
import { forgetRecent, mergeRecent } from './recent.js';
import { pump, renderSending } from './scanqueue.js';
import { forgetCountries, renderStart } from './start.js';
import { ensureSummary } from './summary.js';

let stateRetry = null;
let stateSeq = 0;

/** Asks for the state; only the answer to the newest request is used. */
export function loadState() {
  const seq = ++stateSeq;
  api('GET', '/api/state', null, 10000).then(function (res) {
    if (seq !== stateSeq) return;
    if (res.ok && obj(res.data)) {
      applyState(res.data);
    } else {
      retryState(errorMessage(res, 'The kiosk could not give its state'));
    }
  }, function () {
    if (seq !== stateSeq) return;
    retryState('The kiosk service is not responding. Trying again\u2026');
  });
}

function retryState(message) {
  if (app.screen === 'loading') setText(el.loadingMessage, message);
  clearTimeout(stateRetry);
  stateRetry = setTimeout(loadState, 2000);
}

/** A state asked for or pushed; its audit's numbers are taken by their revision. */
export function applyState(s) {
  s = obj(s);
  if (!s) return;
  clearTimeout(stateRetry);
  if (s.pin_required) {
    app.state = s;
    closeEvents();
    setText(el.pinStation, str(s.station));
    showScreen('pin');
    return;
  }
  app.state = s;
  openEvents();
  const audit = obj(s.audit);
  if (!audit) {
    app.summary = null;
    showScreen('start');
    renderStart();
  } else if (audit.is_active !== false) {
    const changed = !app.progress || app.progress.audit_id !== audit.id;
    applyProgress(audit.id, audit);
    if (changed) { forgetRecent(); clearLists(); showIdle(); forgetPlaces(); }
    mergeRecent(arr(s.recent), true);
    settleShown(arr(s.recent));
    const entering = app.screen !== 'scan';
    showScreen('scan');
    scheduleLists(changed ? 0 : 300);
    if (changed || entering) schedulePlaces(0);
  } else {
    showScreen('summary');
    ensureSummary(audit);
  }
  renderCamera();
  renderTopbar();
  renderLocation();
  renderConnection();
  askUserIfUnknown();
  pump();
}

export function showScreen(name) {
  const before = app.screen;
  app.screen = name;
  document.body.setAttribute('data-screen', name);
  ['loading', 'pin', 'start', 'scan', 'summary'].forEach(function (n) {
    const section = $('screen-' + n);
    if (section) section.hidden = n !== name;
  });
  el.topbar.hidden = name === 'pin' || name === 'loading';
  el.scanControls.hidden = name !== 'scan';
  if (name !== 'scan') {
    stopPreview();
    clearOutlines();
    closeDialog(el.confirmDialog);
    closeDialog(el.userDialog);
    closeDialog(el.undoDialog);
    closeDialog(el.locationDialog);
    closeDialog(el.photoDialog);
  }
  if (name !== 'start') closeDialog(el.scopeDialog);
  if (name === 'scan') hideNotRecorded();
  if (name === 'scan' && before !== 'scan') {
    focusEntry();
  } else if (name === 'pin' && before !== 'pin') {
    el.pin.focus();
  } else if (name === 'start' && before !== 'start') {
    forgetCountries();
  }
  renderSending();
}

export function renderTopbar() {
  const s = app.state || {};
  setText(el.stationName, str(s.station));
  const audit = obj(s.audit);
  el.auditLabel.textContent = '';
  if (audit && app.screen === 'summary') {
    el.auditLabel.appendChild(document.createTextNode('Audit '));
    el.auditLabel.appendChild(make('strong', null, str(audit.country)));
    el.auditLabel.appendChild(document.createTextNode(audit.is_active === false ? ' (ended)' : ' (running)'));
  }
  el.scannerLabel.textContent = '';
  if (s.user) {
    el.scannerLabel.appendChild(document.createTextNode('Scanning as '));
    el.scannerLabel.appendChild(make('strong', null, str(s.user)));
  } else if (app.state) {
    el.scannerLabel.appendChild(document.createTextNode('Who is scanning? '));
    el.scannerLabel.appendChild(make('strong', null, 'not said'));
  }
  setText(el.auditCountry, audit ? 'Audit of ' + str(audit.country) + (audit.started_at ? ' \u00B7 since ' + fmtTime(audit.started_at) : '') : '');
}

/** An audit just started or joined from the start screen. */
export function enterAudit(audit) {
  if (!app.state) app.state = {};
  app.state.audit = audit;
  applyState(app.state);
}
