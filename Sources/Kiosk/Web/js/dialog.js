/* A dialog of the page, opened with the focus inside it and kept there, and given back when it
 * closes; and a scan's camera photo, shown large in one. */

import { app } from './app.js';
import { make, setText } from './elements.js';
import { el } from './dom.js';
import { cancelIdleReturn, focusEntry } from './focus.js';

let dialogOpener = null;

export function openDialog(dialog, focusNode) {
  if (dialog.open) return;
  dialogOpener = document.activeElement;
  // Chromium hands the focus back to the entry field on close, but typing then inserts
  // nothing there; blurred first, the field is focused afresh when the dialog closes.
  if (document.activeElement === el.entry) el.entry.blur();
  cancelIdleReturn();
  try { dialog.showModal(); } catch (e) { dialog.setAttribute('open', ''); }
  if (focusNode) focusNode.focus();
}

export function closeDialog(dialog) {
  if (!dialog || !dialog.open) return;
  try { dialog.close(); } catch (e) { dialog.removeAttribute('open'); }
}

export function onDialogClosed() {
  if (app.screen === 'scan') {
    dialogOpener = null;
    setTimeout(focusEntry, 0);
  } else if (dialogOpener && dialogOpener.focus && document.contains(dialogOpener)) {
    dialogOpener.focus();
  }
}

/** Tab and Shift+Tab stay inside an open dialog. */
export function trapTab(e) {
  if (e.key !== 'Tab') return;
  const dialog = e.currentTarget;
  const nodes = Array.prototype.filter.call(dialog.querySelectorAll('button, input, a[href]'), function (n) {
    return !n.disabled && n.offsetParent !== null;
  });
  if (!nodes.length) return;
  const first = nodes[0], last = nodes[nodes.length - 1];
  if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
}

/** A small picture of a scan's camera photo that opens it large. */
export function photoButton(auditId, scanId, identifier) {
  const b = make('button', 'photo-mark');
  b.type = 'button';
  b.setAttribute('data-photo-scan', scanId);
  b.setAttribute('aria-label', 'Camera photo of ' + identifier);
  b.title = 'Camera photo of ' + identifier;
  const img = make('img');
  img.alt = '';
  img.loading = 'lazy';
  img.src = photoURL(auditId, scanId);
  b.appendChild(img);
  b.appendChild(make('span', null, 'Photo'));
  b.addEventListener('click', function () { openPhoto(auditId, scanId, identifier); });
  return b;
}

function photoURL(auditId, scanId) {
  return '/api/photo?audit_id=' + encodeURIComponent(auditId) + '&scan_id=' + encodeURIComponent(scanId);
}

export function openPhoto(auditId, scanId, identifier) {
  setText(el.photoTitle, 'Camera photo of ' + identifier);
  setText(el.photoText, 'The frame the camera kept when it read ' + identifier + '.');
  setText(el.photoError, '');
  el.photoImage.alt = 'Camera photo of the scan of ' + identifier;
  el.photoImage.onerror = function () { setText(el.photoError, '\u2716 The photo could not be loaded.'); };
  el.photoImage.src = photoURL(auditId, scanId);
  openDialog(el.photoDialog, el.photoClose);
}

