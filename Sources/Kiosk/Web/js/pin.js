/* The PIN screen of a page opened from another machine: the PIN is sent once, and after too
 * many wrong ones the form waits for the kiosk's Retry-After. */

import { setText } from './elements.js';
import { el } from './dom.js';
import { api, errorMessage } from './api.js';
import { emit } from './bus.js';

let pinUnlockAt = 0;
let pinTimer = null;

export function submitPin(e) {
  e.preventDefault();
  if (Date.now() < pinUnlockAt) return;
  const pin = el.pin.value;
  if (!pin) { setText(el.pinError, 'Type the PIN first.'); el.pin.focus(); return; }
  el.pinSubmit.disabled = true;
  setText(el.pinError, '');
  api('POST', '/api/pin', { pin: pin }, 10000).then(function (res) {
    el.pinSubmit.disabled = false;
    if (res.status === 204 || res.ok) {
      el.pin.value = '';
      emit('reload');
    } else if (res.status === 429) {
      let wait = parseInt(res.headers.get('Retry-After') || '30', 10);
      if (!(wait > 0)) wait = 30;
      lockPin(wait, errorMessage(res, 'Too many wrong PINs'));
    } else if (res.status === 401) {
      el.pin.value = '';
      setText(el.pinError, '\u2716 Wrong PIN. Try again.');
      el.pin.focus();
    } else {
      setText(el.pinError, '\u2716 ' + errorMessage(res, 'The PIN could not be checked'));
    }
  }, function () {
    el.pinSubmit.disabled = false;
    setText(el.pinError, '\u2716 The kiosk service is not responding. Try again in a moment.');
  });
}

function lockPin(seconds, message) {
  pinUnlockAt = Date.now() + seconds * 1000;
  el.pinSubmit.disabled = true;
  clearInterval(pinTimer);
  const tick = function () {
    const left = Math.ceil((pinUnlockAt - Date.now()) / 1000);
    if (left <= 0) {
      clearInterval(pinTimer);
      el.pinSubmit.disabled = false;
      setText(el.pinError, 'You can try the PIN again now.');
      el.pin.focus();
      return;
    }
    setText(el.pinError, '\u2716 Too many wrong PINs. Wait ' + left + ' s before the next try.');
  };
  tick();
  pinTimer = setInterval(tick, 1000);
  el.pinError.title = message;
}
