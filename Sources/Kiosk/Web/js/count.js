/* "How many?": after a scan of an accessory the audit expects, the page asks how many stand where
 * the station stands. A person types the number and presses Set count (POST /api/count, which
 * replaces what was counted here); or scans the tag again, once for each, and each scan counts
 * one. On a connected kiosk whose server is gone the count is kept on the station and sent in
 * its place among the scans once the server is back; the dialog closes at once all the same. A gun's burst in the dialog is a scan (gun.js takes it out of the field), never a number:
 * so a burst there counts, and only a person's typing sets a quantity. */

import { setText } from './elements.js';
import { el } from './dom.js';
import { obj, str } from './format.js';
import { api, errorMessage } from './api.js';
import { closeDialog, openDialog } from './dialog.js';

let asked = null;        // the accessory the dialog asks about: {tag, name}
const seen = new Set();  // the scans asked about (an answer and its pushed event are one scan)

function describe(tally, here, place) {
  const where = place ? ' at ' + place : ' here';
  return str(tally.name) + ' (' + str(tally.tag) + '): ' + (here === null ? '' : here + ' counted' + where + ', ') +
    tally.counted + ' of ' + tally.expected + ' expected in all.';
}

/** A scan answered `accessory_counted`: opens the dialog, or tells the one open of the new count. */
export function askHowMany(ev) {
  ev = obj(ev);
  const tally = ev && obj(ev.accessory);
  if (!tally) return;
  if (ev.scan_id) {
    if (seen.has(ev.scan_id)) return;
    seen.add(ev.scan_id);
    if (seen.size > 2000) seen.clear();
  }
  const same = el.countDialog.open && asked && asked.tag === tally.tag;
  asked = { tag: str(tally.tag), name: str(tally.name) };
  setText(el.countTitle, 'How many ' + asked.name + '?');
  setText(el.countText, describe(tally, null, null) + ' Scanned: one more counted.');
  setText(el.countError, '');
  if (!same) {
    el.countQuantity.value = '';
    openDialog(el.countDialog, el.countQuantity);
  }
}

/** The typed quantity, sent: it replaces what was counted here. */
export function submitCount(e) {
  e.preventDefault();
  if (!asked) { closeDialog(el.countDialog); return; }
  const text = el.countQuantity.value.trim();
  if (!/^[0-9]{1,9}$/.test(text)) {
    setText(el.countError, '\u2716 Type a whole number, such as 12.');
    el.countQuantity.focus();
    return;
  }
  el.countSet.disabled = true;
  api('POST', '/api/count', { tag: asked.tag, quantity: parseInt(text, 10) }).then(function (res) {
    el.countSet.disabled = false;
    const d = obj(res.data);
    if (res.ok && d && obj(d.accessory)) {
      // A connected kiosk whose server is gone keeps the count and sends it later (pending).
      setText(el.countText, d.pending ? str(d.message) : describe(d.accessory, d.counted_here, d.location));
      setText(el.countError, '');
      closeDialog(el.countDialog);
      if (window.kiosk) window.kiosk.lastCount = d;
    } else {
      setText(el.countError, '\u2716 ' + errorMessage(res, 'The count was not set'));
    }
  }, function () {
    el.countSet.disabled = false;
    setText(el.countError, '\u2716 The kiosk service is not responding; the count was not set. Try again.');
  });
}

export function closeCount() { closeDialog(el.countDialog); }

/** A gun's tag scanned while the dialog may be open: another tag than the one asked about means
 *  the person went on scanning, so the dialog gives way (what was typed in it is not set) and
 *  that scan's outcome is seen. The tag asked about counts one more and the dialog stays. */
export function scannedWhileAsking(text) {
  if (el.countDialog.open && (!asked || text !== asked.tag)) closeDialog(el.countDialog);
}
