/* AuditStation kiosk page (docs/kiosk-api.md): the entry module. Plain JavaScript in ES modules
 * that the browser loads as they are: no build step, no libraries. This module wires the page's
 * controls to the modules that own them and starts the page.
 *
 * The modules, by concern:
 *   app.js         what several modules share: the kiosk's last state, the screen shown, the summary and the progress
 *   bus.js         the few messages upward (read the state again, show a screen), handed to their owners here
 *   dom.js         the page's elements (el) and small DOM helpers
 *   api.js         one call to the kiosk (fetch with a deadline, the X-Kiosk header)
 *   screens.js     the kiosk's state decides the screen: loading, pin, start, scan or summary; the top bar
 *   connection.js  the pushed events, the "service not responding" banner, the station's link to the server
 *   pin.js         the PIN screen
 *   start.js       the start screen: countries, start or join an audit, who is scanning
 *   scanqueue.js   typed scans: kept in localStorage until the kiosk answers, then sent again with the same scan_id
 *   outcomes.js    the big outcome box of each scan, and the window.kiosk hooks for tests and benchmarks
 *   progress.js    the audit's numbers and completion bar
 *   recent.js      the last scans
 *   lists.js       the missing and unexpected lists and their search boxes
 *   focus.js       the entry field keeps the focus, so a barcode gun's keys land in it
 *   gun.js         a barcode gun's burst anywhere else is a scan: never a button press, a name or a search
 *   place.js       where the station stands (top bar, location dialog) and the start dialog's locations
 *   dialog.js      a dialog with the focus kept inside it; a scan's camera photo
 *   dialogs.js     ending the audit, undoing the last scan, changing the scanner's name, leaving
 *   count.js       "How many?" after the scan of an accessory the audit counts
 *   summary.js     the summary screen of an ended audit
 *   camera.js      the camera preview and the outlines of the codes it reads
 *   mute.js        the mute button
 *
 * Shared with the phone page (Sources/PageScripts, served beside these): format.js (values made
 * safe, numbers, times, storage, scan ids), words.js (the words of each outcome), sound.js (the
 * outcome sounds, Web Audio made here) and burst.js (what a gun's burst is).
 *
 * Everything that comes from the kiosk is shown with textContent. No module imports one that
 * imports it back (a test fails on any cycle): where a module must reach up (read the state
 * again, show another screen, enter an audit) it says so on bus.js, and init() hands each
 * message to its owner. Module-level code only declares; everything runs from init(). */

import { app } from './app.js';
import { bindElements, el } from './dom.js';
import { onPreviewError, onPreviewLoad, placeOutlines } from './camera.js';
import { on } from './bus.js';
import { closeDialog, onDialogClosed, trapTab } from './dialog.js';
import { confirmEnd, confirmUndo, leave, openConfirm, openUndo, openUserDialog, submitUserDialog } from './dialogs.js';
import { askHowMany, closeCount, submitCount } from './count.js';
import { onGunKeyDown, onGunKeyUp } from './gun.js';
import { typedKeys } from './burst.js';
import { cancelScope, confirmScope, openLocationDialog } from './place.js';
import { armIdleReturn, focusEntry, focusEntryUnlessControl, holdBurstKey, onEntryBlur, onKeyDown } from './focus.js';
import { bindSearches, fillPagers, preparePrint, printMissing } from './lists.js';
import { showIdle } from './outcomes.js';
import { submitPin } from './pin.js';
import { renderProgress } from './progress.js';
import { onStorageChange, pump, renderSending, submitEntry } from './scanqueue.js';
import { applyState, enterAudit, loadState, renderTopbar, showScreen } from './screens.js';
import { ensureAudio } from './sound.js';
import { loadMute, toggleMute } from './mute.js';
import { onCountryClick, saveUser } from './start.js';

function bind() {
  fillPagers();
  bindElements();
  // First of all key handlers: a barcode gun's burst is caught before any field or button sees it.
  window.addEventListener('keydown', onGunKeyDown, true);
  window.addEventListener('keyup', onGunKeyUp, true);
  // Keys sent with their text alone come as keypresses; each handler below reads them too.
  window.addEventListener('keypress', typedKeys(onGunKeyDown), true);

  el.pinForm.addEventListener('submit', submitPin);

  el.userName.addEventListener('change', function () { saveUser(el.userName.value, el.userStatus); });
  el.userName.addEventListener('keydown', function (e) {
    if (e.key === 'Enter' && !e.isComposing) { e.preventDefault(); saveUser(el.userName.value, el.userStatus); }
  });
  el.userSave.addEventListener('click', function () { saveUser(el.userName.value, el.userStatus); });
  el.countries.addEventListener('click', onCountryClick);

  const onEntryKey = function (e) {
    if (e.isComposing || holdBurstKey(e)) return;
    // Enter ends a tag; so does Tab after text (some barcode guns are set up to send Tab).
    if (e.key === 'Enter' || (e.key === 'Tab' && !e.shiftKey && el.entry.value.trim())) {
      e.preventDefault();
      submitEntry(e.timeStamp);
    }
  };
  el.entry.addEventListener('keydown', onEntryKey);
  el.entry.addEventListener('keypress', typedKeys(onEntryKey));
  el.entry.addEventListener('blur', onEntryBlur);
  document.addEventListener('keydown', onKeyDown, true);
  document.addEventListener('keypress', typedKeys(onKeyDown), true);
  document.addEventListener('pointerdown', function () { ensureAudio(); armIdleReturn(); }, true);
  document.addEventListener('focusin', function () { if (app.screen === 'scan') armIdleReturn(); });
  // The window comes to the front: the entry field takes the focus unless a control has it by
  // then (a machine under load can deliver this event after someone has moved to a button).
  window.addEventListener('focus', function () { setTimeout(focusEntryUnlessControl, 0); });

  bindSearches();

  const afterClick = function (e) { if (e.detail > 0) setTimeout(focusEntry, 0); };
  el.mute.addEventListener('click', function (e) {
    toggleMute();
    afterClick(e);
  });
  el.changeUser.addEventListener('click', openUserDialog);
  el.undoButton.addEventListener('click', openUndo);
  el.undoNo.addEventListener('click', function () { closeDialog(el.undoDialog); });
  el.undoYes.addEventListener('click', confirmUndo);
  el.changeLocation.addEventListener('click', openLocationDialog);
  el.locationCancel.addEventListener('click', function () { closeDialog(el.locationDialog); });
  el.scopeCancel.addEventListener('click', cancelScope);
  el.scopeStart.addEventListener('click', confirmScope);
  el.leaveButton.addEventListener('click', leave);
  el.endButton.addEventListener('click', openConfirm);
  el.confirmNo.addEventListener('click', function () { closeDialog(el.confirmDialog); });
  el.confirmYes.addEventListener('click', confirmEnd);
  el.userDialogForm.addEventListener('submit', submitUserDialog);
  el.userDialogCancel.addEventListener('click', function () { closeDialog(el.userDialog); });
  el.photoClose.addEventListener('click', function () { closeDialog(el.photoDialog); });
  el.countForm.addEventListener('submit', submitCount);
  el.countDone.addEventListener('click', closeCount);
  [el.confirmDialog, el.userDialog, el.undoDialog, el.locationDialog, el.scopeDialog, el.photoDialog, el.countDialog].forEach(function (d) {
    d.addEventListener('keydown', trapTab);
    d.addEventListener('close', onDialogClosed);
    d.addEventListener('cancel', function () { /* Escape: the safe choice */ });
  });
  el.backToStart.addEventListener('click', leave);
  el.printButton.addEventListener('click', printMissing);
  window.kiosk = window.kiosk || {};
  window.kiosk.preparePrint = preparePrint;

  el.preview.addEventListener('load', onPreviewLoad);
  el.preview.addEventListener('error', onPreviewError);
  window.addEventListener('resize', placeOutlines);
  window.addEventListener('online', function () { pump(); });
  window.addEventListener('storage', onStorageChange);
}

/** The messages of bus.js, each to the module that owns it. */
function route() {
  on('reload', loadState);
  on('state', applyState);
  on('topbar', renderTopbar);
  on('screen', showScreen);
  on('enter-audit', enterAudit);
  on('accessory-counted', askHowMany);
  // The undo command label, from a gun, the field or the camera: the first scan opens the undo of
  // the last scan, a second one while its confirmation is open confirms it.
  on('undo-command', function () {
    if (app.screen !== 'scan') return;
    if (el.undoDialog.open) { if (!el.undoYes.disabled) confirmUndo(); } else openUndo();
  });
}

function init() {
  route();
  bind();
  loadMute();
  renderProgress();
  showIdle();
  renderSending();
  // Scans typed before a reload or a power cut that never got an answer are sent again as
  // soon as the state is in (applyState calls pump).
  loadState();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
