/* The kiosk's mute button: its choice is kept in localStorage for this kiosk. Also the sound
 * hooks that the browser tests read (window.kiosk.sounds, window.kiosk.audioState). */

import { setText } from './elements.js';
import { el } from './dom.js';
import { storageGet, storageSet } from './format.js';
import { audioState, ensureAudio, isMuted, playSound, setMuted, sounds } from './sound.js';

const MUTE_KEY = 'auditstation.kiosk.muted';
const hooks = window.kiosk = window.kiosk || {};
hooks.sounds = sounds;
hooks.audioState = audioState;

/** Takes the choice kept for this kiosk (at start). */
export function loadMute() {
  setMuted(storageGet(MUTE_KEY) === '1');
  renderMute();
}

export function renderMute() {
  const muted = isMuted();
  el.mute.setAttribute('aria-pressed', muted ? 'true' : 'false');
  setText(el.mute, muted ? 'Sound: off' : 'Sound: on');
  el.mute.title = muted ? 'Turn the sounds back on' : 'Mute the sounds';
}

/** The mute button: the choice is kept for this kiosk; turning the sound on plays the found sound. */
export function toggleMute() {
  setMuted(!isMuted());
  storageSet(MUTE_KEY, isMuted() ? '1' : '0');
  renderMute();
  if (!isMuted()) { ensureAudio(); playSound('found_expected'); }
}
