/* The outcome sounds, made with Web Audio (no sound files), one set for every page that scans
 * (the kiosk, the phone page). Sounds queue: each starts after the one before has ended, never
 * over it. A FOUND beep is left out when the queue is already more than a second long (a burst
 * of finds); every other sound waits its turn. `sounds` lists what was scheduled (for tests). */

let audio = null;
let resuming = null;         // the pending resume() of a suspended context
let suspending = null;       // the pending suspend() of a quiet context
let wanted = false;          // a sound came while it was being suspended: resume after
let quietTimer = null;
const QUIET_MS = 3000;       // the context is suspended this long after the last sound ends
let muted = false;
let queueEnd = 0;            // audio-clock time at which the last queued sound ends
const SOUND_GAP = 0.06;      // seconds of silence between two sounds
/** The sounds scheduled, oldest first: {status, start, end} on the audio clock. */
export const sounds = [];
/** The audio context's state ('running', 'suspended'), null before the first key or tap. */
export function audioState() { return audio ? audio.state : null; }

/** Whether sounds are off; the page that shows a mute button keeps the choice. */
export function isMuted() { return muted; }
export function setMuted(off) { muted = !!off; }

/** How long each sound lasts, in seconds. */
const LENGTH = {
  found_expected: 0.24, misplaced: 0.56, already_scanned: 0.23, unexpected: 0.64, unknown: 0.4, rejected: 0.4,
  location: 0.3, camera_lost: 1.2, accessory_counted: 0.3
};

/** The AudioContext, asked to resume when it is suspended (it may start so until the page gets
 *  a key or a tap, and it is suspended when quiet). It is asked once until that answer comes:
 *  every key of a burst calls this, and each resume() is a round trip to the browser's audio
 *  service. Sounds scheduled meanwhile wait on the context's clock, which stands still. */
export function ensureAudio() {
  try {
    if (!audio) {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return null;
      audio = new AC();
    }
    if (suspending) wanted = true;
    else if (audio.state === 'suspended' && audio.resume && !resuming) {
      resuming = Promise.resolve(audio.resume()).catch(function () {}).then(function () { resuming = null; });
    }
    suspendWhenQuiet();
    return audio;
  } catch (e) {
    audio = null;
    return null;
  }
}

/* A running context renders silence all the time (a real-time audio thread of the browser's):
 * on a kiosk that waits for hours between scans that is CPU for nothing, so it is suspended a
 * few seconds after its last sound has ended, and resumed by the next key, tap or sound. */
function suspendWhenQuiet() {
  clearTimeout(quietTimer);
  const ctx = audio;
  if (!ctx || !ctx.suspend) return;
  const left = Math.max(0, queueEnd - ctx.currentTime) * 1000;
  quietTimer = setTimeout(function () {
    quietTimer = null;
    if (audio !== ctx || ctx.state !== 'running' || suspending) return;
    if (resuming || ctx.currentTime < queueEnd) { suspendWhenQuiet(); return; }
    suspending = Promise.resolve(ctx.suspend()).catch(function () {}).then(function () {
      suspending = null;
      if (wanted) { wanted = false; ensureAudio(); }
    });
  }, left + QUIET_MS);
}

function tone(ctx, start, duration, freq, type, volume, freqEnd) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (freqEnd) osc.frequency.linearRampToValueAtTime(freqEnd, start + duration);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.012);
  gain.gain.setValueAtTime(volume, start + Math.max(0.015, duration - 0.03));
  gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
  osc.connect(gain);
  gain.connect(ctx.destination);
  osc.start(start);
  osc.stop(start + duration + 0.02);
  return osc;
}

export function playSound(status) {
  if (muted || !LENGTH[status]) return;
  try {
    const ctx = ensureAudio();
    if (!ctx || ctx.state === 'closed') return;
    const now = ctx.currentTime + 0.01;
    if (status === 'found_expected' && queueEnd - now > 1) return;
    const t = Math.max(now, queueEnd);
    queueEnd = t + LENGTH[status] + SOUND_GAP;
    suspendWhenQuiet();
    sounds.push({ status: status, start: t, end: t + LENGTH[status] });
    if (sounds.length > 500) sounds.splice(0, sounds.length - 500);
    switch (status) {
      case 'found_expected':       // short, bright, rising two-tone
        tone(ctx, t, 0.08, 988, 'sine', 0.35);
        tone(ctx, t + 0.085, 0.13, 1480, 'sine', 0.35);
        break;
      case 'already_scanned':      // neutral double low blip
        tone(ctx, t, 0.07, 440, 'triangle', 0.4);
        tone(ctx, t + 0.14, 0.07, 440, 'triangle', 0.4);
        break;
      case 'unexpected': {         // warbling alert
        const osc = tone(ctx, t, 0.62, 880, 'square', 0.18);
        for (let i = 1; i < 8; i++) osc.frequency.setValueAtTime(i % 2 ? 620 : 880, t + i * 0.078);
        break;
      }
      case 'misplaced':            // found, then a falling third: right asset, wrong place
        tone(ctx, t, 0.08, 988, 'sine', 0.35);
        tone(ctx, t + 0.1, 0.2, 784, 'triangle', 0.4);
        tone(ctx, t + 0.32, 0.24, 587, 'triangle', 0.4);
        break;
      case 'location':             // soft two-note chime
        tone(ctx, t, 0.12, 660, 'sine', 0.25);
        tone(ctx, t + 0.14, 0.16, 880, 'sine', 0.25);
        break;
      case 'accessory_counted':    // one short tick per item counted
        tone(ctx, t, 0.06, 1175, 'sine', 0.3);
        tone(ctx, t + 0.12, 0.06, 1175, 'sine', 0.3);
        break;
      case 'unknown':
      case 'rejected':             // low buzz
        tone(ctx, t, 0.38, 130, 'sawtooth', 0.22);
        tone(ctx, t, 0.38, 137, 'square', 0.08);
        break;
      case 'camera_lost': {        // three falling alarm tones
        for (let k = 0; k < 3; k++) tone(ctx, t + k * 0.4, 0.34, 740 - k * 120, 'square', 0.2);
        break;
      }
      default:
        break;
    }
  } catch (e) { /* no sound is better than a broken page */ }
}
