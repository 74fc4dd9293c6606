/* A keyboard-wedge barcode gun types a tag far faster than a person can and ends it with Enter
 * (or Tab). Wherever the focus is (a dialog, the name field, a search box, a button, the
 * loading, PIN, start or summary screen), such a burst is a scan: its characters are taken back out of the
 * field they landed in, it never presses a button, never submits a form and never saves a name.
 * With an audit open it is recorded; with none, or on the PIN screen, the page says NOT
 * RECORDED, with its sound.
 *
 * A password field is the exception: a password is never a tag, so keys typed into one are typed
 * input however fast they come (a password manager's auto-type, about 25 ms a key and then
 * Enter, or a badge reader typing the PIN). They stay in the field, and their Enter submits it.
 *
 * The entry field of the scanning screen takes bursts as typed tags (scanqueue.js); keys typed
 * while a button or nothing has the focus there go to it (focus.js). This module handles every
 * other place. What a burst is (its gap, its shortest tag, the keys that end it) is burst.js,
 * the rule the back office follows too. */

import { app } from './app.js';
import { el } from './dom.js';
import { obj } from './format.js';
import { closeDialog } from './dialog.js';
import { scannedWhileAsking } from './count.js';
import { Burst, endsBurst, isBurstModifier, isPrintable, isSecret, isUnidentified, restore, snapshot } from './burst.js';
import { focusEntry, isTextField } from './focus.js';
import { notRecorded } from './outcomes.js';
import { isUndoCommand } from './format.js';
import { submitIdentifier } from './scanqueue.js';

const DELIBERATE_MS = 300;       // Enter on a button counts only this long after the last typed character
// Why a burst was not recorded, by the screen it came on (any other: no audit is running).
const WHY_NOT_RECORDED = {
  pin: 'This screen is locked. Type the station PIN, then scan again.',
  loading: 'The kiosk is not ready yet. Scan again in a moment.',
  summary: 'This audit has ended, and no audit is running on this kiosk. Start or join one, then scan again.'
};

const burst = new Burst();
let before = null;               // the focused field as it was before the burst's first key
let lastPrintableAt = -1e9;
let swallowSpaceUp = false;

function dialogOpen() {
  return Array.prototype.some.call(document.querySelectorAll('dialog'), function (d) { return d.open; });
}

/** Whether this module owns the key: everywhere but the scanning screen's own paths and password
 *  fields. A burst anywhere else on the PIN screen is refused aloud as a scan. */
function owns(target) {
  if (isSecret(target)) return false;
  if (app.screen !== 'scan' || dialogOpen()) return true;
  if (target === el.entry) return false;
  return isTextField(target);      // a search box; buttons hand their keys to the entry field
}

/** Window keydown, capture phase: before any field, button, form or dialog sees the key. */
export function onGunKeyDown(e) {
  if (e.isComposing || isUnidentified(e)) return;
  const t = e.timeStamp;
  const target = document.activeElement;
  if (isPrintable(e)) {
    const fast = burst.add(e.key, t);
    if (!fast) before = snapshot(target);
    lastPrintableAt = t;
    if (!owns(target)) return;
    // On a button (or nothing) a character does nothing; inside a burst a space must not press it.
    if (!isTextField(target) && (e.key !== ' ' || fast)) {
      e.preventDefault();
      if (e.key === ' ') swallowSpaceUp = true;
    }
    return;
  }
  if (isBurstModifier(e)) {
    if (!e.repeat) burst.modifier(t);
    return;
  }
  // Any other key ends what was typed before it; only an ending key right after it makes a tag.
  const isBurst = endsBurst(e) && burst.endsTagAt(t);
  const text = burst.text, snap = before;
  burst.clear();
  before = null;
  if (!owns(target)) return;
  if (isBurst) {
    e.preventDefault();
    e.stopImmediatePropagation();
    restore(snap);
    gunScan(text.trim());
    return;
  }
  // A stray Enter right after typed characters is not a deliberate press of a button.
  if (e.key === 'Enter' && !isTextField(target) && t - lastPrintableAt < DELIBERATE_MS) {
    e.preventDefault();
    e.stopImmediatePropagation();
  }
}

export function onGunKeyUp(e) {
  if (e.key === ' ' && swallowSpaceUp) {
    swallowSpaceUp = false;
    e.preventDefault();
    e.stopImmediatePropagation();
  }
}

/** A tag a gun typed outside the entry field. */
export function gunScan(text) {
  if (!text) return;
  const audit = obj(app.state && app.state.audit);
  if (app.screen === 'scan' && audit && audit.is_active !== false) {
    // The undo command label answers the undo confirmation, which must stay open for it.
    if (isUndoCommand(text)) { submitIdentifier(text); return; }
    // Scanning goes on: the end confirmation gives way; the name dialog keeps its old name.
    if (el.confirmDialog.open) closeDialog(el.confirmDialog);
    if (el.undoDialog && el.undoDialog.open) closeDialog(el.undoDialog);
    scannedWhileAsking(text);
    submitIdentifier(text);
    if (!dialogOpen()) focusEntry();
    return;
  }
  notRecorded(text, WHY_NOT_RECORDED[app.screen] || 'No audit is running. Start or join one, then scan again.');
}
