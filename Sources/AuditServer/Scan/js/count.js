/* "How many?" on the phone: after a scan of an accessory the audit counts, the page asks how many
 * stand where the phone stands. A typed number, sent with Set count, replaces what was counted
 * here (POST /api/v1/audit/count); scanning the tag again counts one more each time. A gun's
 * burst is always a scan (phone.js takes it out of the field), so a burst in the dialog counts
 * and never types a number. */

import { call } from './server.js';
import { $ } from './outcome.js';
import { obj, str } from './format.js';

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

/** Binds the dialog; `where` gives the phone's location now. */
export function bindCount(where) {
  $('count-done').addEventListener('click', function () { $('count-dialog').close(); });
  $('count-form').addEventListener('submit', async function (e) {
    e.preventDefault();
    if (!asked) { $('count-dialog').close(); return; }
    const text = $('count-quantity').value.trim();
    if (!/^[0-9]{1,9}$/.test(text)) {
      $('count-error').textContent = '\u2716 Type a whole number, such as 12.';
      return;
    }
    const body = { tag: asked.tag, quantity: parseInt(text, 10), audit_id: asked.auditId };
    const place = where();
    if (place) body.location = place;
    $('count-set').disabled = true;
    const res = await call('POST', '/api/v1/audit/count', body, 10000);
    $('count-set').disabled = false;
    if (!res.ok) { $('count-error').textContent = '\u2716 ' + res.message; return; }
    $('count-text').textContent = describe(obj(res.data.accessory) || {});
    $('count-dialog').close();
  });
}
