/* "How many?" on the phone: after a scan of an accessory the audit counts, the page asks how many
 * stand where the phone stands. A typed number, sent with Set count, replaces what was counted
 * here (POST /api/v1/audit/count); scanning the tag again counts one more each time. A gun's
 * burst is always a scan (phone.js takes it out of the field), so a burst of the tag in the
 * dialog counts one more and never types a number; a burst of any other tag is a scan that moves
 * on: the dialog closes (nothing typed in it is set) so that scan's outcome is seen. */

import { $ } from './elements.js';
import { newScanId, obj, str } from './format.js';

let asked = null;   // {tag, name, auditId}

function describe(tally) {
  return str(tally.name) + ' (' + str(tally.tag) + '): ' + tally.counted + ' of ' + tally.expected + ' expected counted in all.';
}

/** A scan answered `accessory_counted`: opens the dialog, or tells the open one of the new count. */
export function askHowMany(result) {
  const tally = obj(result.accessory);
  if (!tally) return;
  const dialog = $('count-dialog');
  const same = dialog.open && asked && asked.tag === tally.tag;
  asked = { tag: str(tally.tag), name: str(tally.name), auditId: str(result.audit_id) };
  $('count-title').textContent = 'How many ' + asked.name + '?';
  $('count-text').textContent = describe(tally);
  $('count-error').textContent = '';
  if (!same) {
    $('count-quantity').value = '';
    dialog.showModal();
    $('count-quantity').focus();
  }
}

/** A gun's scan of `text` while the dialog may be open: another tag than the one asked about
 *  closes it. */
export function scannedWhileAsking(text) {
  const dialog = $('count-dialog');
  if (dialog.open && (!asked || text !== asked.tag)) dialog.close();
}

/** Binds the dialog; `where` gives the phone's location now, `keep(item)` puts a count in the
 *  phone's queue (answers false when the phone could not keep it). A count waits in the queue
 *  with the scans, in its place among them: with the Wi-Fi gone it is kept on the phone and sent
 *  when the server can be reached, and a scan made after it counts on top of it. */
export function bindCount(where, keep) {
  $('count-done').addEventListener('click', function () { $('count-dialog').close(); });
  $('count-form').addEventListener('submit', function (e) {
    e.preventDefault();
    if (!asked) { $('count-dialog').close(); return; }
    const text = $('count-quantity').value.trim();
    if (!/^[0-9]{1,9}$/.test(text)) {
      $('count-error').textContent = '\u2716 Type a whole number, such as 12.';
      return;
    }
    const item = {
      kind: 'count', scan_id: newScanId(), identifier: asked.tag, name: asked.name, quantity: parseInt(text, 10), audit_id: asked.auditId,
      location: where() || null, scanned_at: new Date().toISOString()
    };
    if (!keep(item)) { $('count-error').textContent = '\u2716 This phone could not keep the count (its storage is full).'; return; }
    $('count-dialog').close();
  });
}

/** The body of a kept count's call. */
export function countBody(item) {
  const body = { tag: item.identifier, quantity: item.quantity, audit_id: item.audit_id, count_id: item.scan_id };
  if (item.location) body.location = item.location;
  return body;
}

/** The server's answer to a count: the dialog, if it still asks about that accessory, says so. */
export function countAnswered(data) {
  const tally = obj(obj(data) && data.accessory);
  if (tally && asked && asked.tag === tally.tag) $('count-text').textContent = describe(tally);
}
