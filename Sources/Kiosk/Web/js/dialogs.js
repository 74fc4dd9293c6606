/* The dialogs of the scanning screen (end the audit, undo the last scan, who is scanning), and
 * leaving an audit (from the scanning or the summary screen). */

import { app } from './app.js';
import { setText } from './elements.js';
import { el } from './dom.js';
import { fmtInt, fmtTime, num, obj, plural, str } from './format.js';
import { api, errorMessage } from './api.js';
import { emit } from './bus.js';
import { closeDialog, openDialog } from './dialog.js';
import { focusEntry } from './focus.js';
import { handleVoid, showIdle } from './outcomes.js';
import { lastUndoable } from './recent.js';
import { saveUser } from './start.js';
import { renderSummary, showSummaryError } from './summary.js';

export function openConfirm() {
  const audit = obj(app.state && app.state.audit);
  if (!audit) return;
  const p = app.progress || {};
  setText(el.confirmTitle, 'End the audit of ' + str(audit.country) + '?');
  setText(el.confirmText, fmtInt(p.scanned_count) + ' of ' + fmtInt(p.total_assets) + ' expected assets scanned, ' +
    fmtInt(p.missing_count) + ' missing, ' + fmtInt(p.unexpected_count) + ' unexpected.');
  setText(el.confirmError, '');
  renderEndWarning();
  endForce = false;
  setText(el.confirmYes, 'End audit');
  el.confirmYes.disabled = false;
  el.confirmNo.disabled = false;
  openDialog(el.confirmDialog, el.confirmNo);
}

/** In the END confirmation itself: the scans made here that the server does not have yet. */
export function renderEndWarning() {
  const c = obj(app.state && app.state.connection) || {};
  const waiting = num(c.audit_pending_scans);
  el.confirmWarning.hidden = waiting === 0;
  setText(el.confirmWarning, waiting === 0 ? '' : '\u26A0 ' + plural(waiting, 'scan is', 'scans are') +
    ' waiting for the server; the audit can end once they are sent' +
    (c.state === 'offline' ? '. The server cannot be reached now: they are kept on this station and go as soon as it is back.' : '.'));
}

/** Set once the server said other stations may still hold scans (STATIONS_OUT) and named
 *  them: the next press of the same button, now END ANYWAY, ends the audit regardless. */
let endForce = false;

export function confirmEnd() {
  const audit = obj(app.state && app.state.audit);
  if (!audit) { closeDialog(el.confirmDialog); return; }
  el.confirmYes.disabled = true;
  setText(el.confirmError, '');
  setText(el.confirmYes, 'Ending\u2026');
  api('POST', '/api/end', endForce ? { audit_id: audit.id, force: true } : { audit_id: audit.id }, 60000).then(function (res) {
    el.confirmYes.disabled = false;
    endForce = !res.ok && !!obj(res.data) && res.data.error === 'STATIONS_OUT';
    setText(el.confirmYes, endForce ? 'End anyway' : 'End audit');
    const s = obj(res.data) && obj(res.data.summary);
    if (res.ok && s && obj(s.audit)) {
      app.summary = s;
      closeDialog(el.confirmDialog);
      if (app.state) app.state.audit = s.audit;
      emit('screen', 'summary');
      emit('topbar');
      renderSummary();
      // Nothing pressable has the focus: a barcode gun's Enter must not leave the summary.
      el.summaryHeading.focus();
    } else {
      setText(el.confirmError, '\u2716 ' + errorMessage(res, 'The audit was not ended'));
      el.confirmNo.focus();
      if (res.status === 409) emit('reload');
    }
  }, function () {
    el.confirmYes.disabled = false;
    setText(el.confirmYes, 'End audit');
    setText(el.confirmError, '\u2716 The kiosk service is not responding; the audit was not ended. Try again.');
  });
}

let undoTarget = null;

/** "Undo last scan": the newest scan of this station that still counts, after a confirmation
 *  whose safe choice has the focus (a barcode gun's Enter cannot answer it: gun.js). */
export function openUndo() {
  const ev = lastUndoable();
  undoTarget = ev;
  setText(el.undoError, '');
  el.undoYes.disabled = !ev;
  setText(el.undoTitle, ev ? 'Undo the scan of ' + str(ev.identifier) + '?' : 'Nothing to undo');
  setText(el.undoText, ev
    ? 'Scanned by ' + str(ev.user) + (ev.at ? ' at ' + fmtTime(ev.at) : '') + '. The audit\u2019s numbers are corrected as if it had not been scanned.'
    : 'This station has no scan in this audit that can be undone.');
  openDialog(el.undoDialog, el.undoNo);
}

export function confirmUndo() {
  const ev = undoTarget;
  if (!ev) { closeDialog(el.undoDialog); return; }
  el.undoYes.disabled = true;
  setText(el.undoError, '');
  api('POST', '/api/undo', { scan_id: ev.scan_id }, 20000).then(function (res) {
    el.undoYes.disabled = false;
    if (res.ok && obj(res.data)) {
      undoTarget = null;
      handleVoid(res.data);
      closeDialog(el.undoDialog);
    } else {
      setText(el.undoError, '\u2716 ' + errorMessage(res, 'The scan was not undone'));
      el.undoNo.focus();
    }
  }, function () {
    el.undoYes.disabled = false;
    setText(el.undoError, '\u2716 The kiosk service is not responding; the scan was not undone.');
  });
}

export function openUserDialog() {
  el.userDialogName.value = str(app.state && app.state.user);
  el.userDialogHint.hidden = true;
  setText(el.userDialogError, '');
  openDialog(el.userDialog, el.userDialogName);
  el.userDialogName.select();
}

let askedFor = null;

/** Nobody has said who is scanning: the scanning screen asks once per audit. A barcode gun's
 *  burst in the field is a scan (gun.js), never the name; Save name needs a person's press. */
export function askUserIfUnknown() {
  const s = app.state || {};
  const audit = obj(s.audit);
  if (app.screen !== 'scan' || !audit || s.user || askedFor === audit.id || el.userDialog.open) return;
  askedFor = audit.id;
  el.userDialogName.value = '';
  el.userDialogHint.hidden = false;
  setText(el.userDialogError, '');
  openDialog(el.userDialog, el.userDialogName);
}

export function submitUserDialog(e) {
  e.preventDefault();
  const name = el.userDialogName.value.trim();
  if (!name) { setText(el.userDialogError, 'Type who is scanning.'); return; }
  el.userDialogSave.disabled = true;
  saveUser(name, el.userDialogError).then(function (ok) {
    el.userDialogSave.disabled = false;
    if (ok) closeDialog(el.userDialog);
  });
}

export function leave() {
  const buttons = [el.leaveButton, el.backToStart];
  buttons.forEach(function (b) { b.disabled = true; });
  api('POST', '/api/leave', {}, 15000).then(function (res) {
    buttons.forEach(function (b) { b.disabled = false; });
    if (res.ok) {
      app.summary = null;
      if (app.state) app.state.audit = null;
      showIdle();
      emit('reload');
    } else if (app.screen === 'summary') {
      showSummaryError(errorMessage(res, 'Could not go back to the start'));
    }
  }, function () {
    buttons.forEach(function (b) { b.disabled = false; });
    if (app.screen === 'summary') showSummaryError('The kiosk service is not responding. Try again in a moment.');
  });
}
