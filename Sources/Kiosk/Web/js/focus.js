/* The entry field keeps the focus on the scanning screen, so a barcode gun's keys always land
 * in it: keys typed elsewhere go to it, and focus on another control comes back after a while.
 *
 * A gun's burst in the entry field is gathered, not typed key by key: a character that follows
 * the key before it within a gun's gap, at the end of the field, is held; the Enter that ends a
 * tag takes what is held straight into the tag, and held characters with no Enter after them go
 * into the field once the keys pause (a gun's gap and a little more). Letting the browser insert
 * each one costs about a millisecond of the page's only thread on a kiosk without a GPU, and
 * writing the field's value costs a layout of the page (3–25 ms while outcomes are drawn): a
 * 20-tag burst is 240 keys, and the kiosk's answers waited behind them. A person's keys (slower
 * than the gap, or editing inside the text) are typed as usual, and every other key puts what is
 * held in the field first, so nothing changes order.
 *
 * A burst is a tag of its own: text a person typed into the field before it ("SG-", given up
 * on, or left there minutes ago) is never glued onto the gun's tag. The Enter that ends a burst
 * sends the burst's characters alone, and the text that was in the field before its first key is
 * set aside (not recorded) with a note beside the field that says so. */

import { app } from './app.js';
import { el } from './dom.js';
import { Burst, GAP_MS, endsBurst, isBurstModifier, isPrintable, isUnidentified } from './burst.js';
import { ensureAudio } from './sound.js';

const SET_ASIDE_MS = 12000;    // how long the note about text set aside stays
const STALL_MS = 1000;         // fast keys that stall less than this and go on are one typing

let idleTimer = null;
let held = '';                 // a burst's characters not yet in the entry field
let heldTimer = null;           // puts what is held in the field once the keys pause
let lastEntryKeyAt = -1e9;     // the timeStamp of the entry field's last key
const entryBurst = new Burst(); // the entry field's characters since its keys last paused
let beforeBurst = '';          // the field's text before that burst's first key
let joinsBefore = false;       // that text ends with fast keys that only stalled: the same typing
let noteTimer = null;


function dialogOpen() {
  return Array.prototype.some.call(document.querySelectorAll('dialog'), function (d) { return d.open; });
}

export function focusEntry() {
  if (app.screen !== 'scan' || dialogOpen()) return;
  if (document.activeElement !== el.entry) {
    try { el.entry.focus({ preventScroll: true }); } catch (e) { el.entry.focus(); }
  }
}

export function isTextField(node) {
  if (!node || !node.tagName) return false;
  const tag = node.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT' || node.isContentEditable) return true;
  if (tag !== 'INPUT') return false;
  const type = (node.getAttribute('type') || 'text').toLowerCase();
  return ['text', 'search', 'password', 'number', 'email', 'tel', 'url'].indexOf(type) >= 0;
}

function isControl(node) {
  if (!node || node === document.body || !node.tagName) return false;
  return /^(INPUT|BUTTON|SELECT|TEXTAREA|A)$/.test(node.tagName);
}

/** Focus on another control (a search box, a button) is allowed, but comes back to the entry
 *  field once the person stops using it. */
export function armIdleReturn() {
  clearTimeout(idleTimer);
  if (app.screen !== 'scan') return;
  const active = document.activeElement;
  if (active === el.entry || dialogOpen()) return;
  const wait = isTextField(active) ? 20000 : 6000;
  idleTimer = setTimeout(function () {
    if (app.screen === 'scan' && !dialogOpen() && document.activeElement !== el.entry) focusEntry();
  }, wait);
}

export function onEntryBlur(e) {
  flushHeld();
  if (app.screen !== 'scan') return;
  const to = e.relatedTarget;
  if (to && isControl(to)) { armIdleReturn(); return; }
  setTimeout(focusEntryUnlessControl, 0);
}

/** The entry field takes the focus back, unless a control (a button, a search box) has it: a
 *  person's choice, whose keys still reach the entry field and which the idle return ends. */
export function focusEntryUnlessControl() {
  const active = document.activeElement;
  if (app.screen === 'scan' && !dialogOpen() && (!active || active === document.body || !isControl(active))) focusEntry();
}

export function onKeyDown(e) {
  ensureAudio();
  if (app.screen !== 'scan' || isUnidentified(e)) return;
  const active = document.activeElement;
  // In a dialog a barcode gun's tag is caught by gun.js; a person's keys stay in the dialog.
  if (dialogOpen() || active === el.entry) return;
  if (isTextField(active)) { armIdleReturn(); return; }
  if (isBurstModifier(e) && !e.repeat) entryBurst.modifier(e.timeStamp);
  if (isPrintable(e) && e.key !== ' ') {
    // A barcode gun typing while a button has the focus: the characters go to the entry field.
    e.preventDefault();
    focusEntry();
    noteEntryChar(e.key, e.timeStamp);
    el.entry.value += e.key;
    return;
  }
  armIdleReturn();
}

/** A dialog opens: the entry field does not take the focus back meanwhile. */
export function cancelIdleReturn() { clearTimeout(idleTimer); }

/** The entry field's keydown, before anything else of the field: true when the key was held
 *  (a burst's character), and the caller does nothing more with it. */
export function holdBurstKey(e) {
  if (isUnidentified(e)) return false;   // its keypress comes as the key (`typedKey`)
  const t = e.timeStamp;
  // Part of the burst: it must not put what is held in the field (a layout of the page a tag).
  // A gun's Shift around a capital: the burst's next character is timed from it.
  if (isBurstModifier(e)) {
    if (!e.repeat) {
      entryBurst.modifier(t);
      if (t - lastEntryKeyAt <= GAP_MS) lastEntryKeyAt = t;
    }
    return false;
  }
  if (isPrintable(e)) noteEntryChar(e.key, t);
  else if (!endsBurst(e)) { entryBurst.clear(); joinsBefore = false; }   // an arrow, Backspace: typed anew
  const fast = t - lastEntryKeyAt <= GAP_MS;
  lastEntryKeyAt = t;
  const field = el.entry;
  const atEnd = field.selectionStart === field.value.length && field.selectionEnd === field.value.length;
  if (!fast || !isPrintable(e) || !atEnd) {
    // Enter ends the tag: submitEntry takes what is held along with the field's text.
    if (e.key !== 'Enter') flushHeld();
    return false;
  }
  e.preventDefault();
  held += e.key;
  clearTimeout(heldTimer);
  heldTimer = setTimeout(flushHeld, GAP_MS + 10);
  return true;
}

/** A character for the entry field, typed at `t`: the first of a burst notes the field's text
 *  before it (with what is still held, which goes before it). Two or more fast keys that stall
 *  for less than a second and go on are one typing delivered late (a remote keyboard, a
 *  machine's hiccup), never a person's leftover: no hand types that fast and then scans. */
function noteEntryChar(key, t) {
  const run = entryBurst.text.length;
  const pause = t - entryBurst.at;
  if (!entryBurst.add(key, t)) {
    beforeBurst = el.entry.value + held;
    joinsBefore = run >= 2 && pause < STALL_MS;
  }
}

/** The Enter (or Tab) at `t` ends the entry field's typing: when the keys since they last paused
 *  are a gun's tag of its own, answers it with the text the field held before it ({tag,
 *  before}); else null, and the field's text is the tag. */
export function takeBurst(t) {
  const burst = entryBurst.endsTagAt(t) && !joinsBefore ? { tag: entryBurst.text, before: beforeBurst } : null;
  entryBurst.clear();
  beforeBurst = '';
  joinsBefore = false;
  return burst;
}

/** Says beside the entry field that text typed before a gun's tag was set aside, not recorded. */
export function noteSetAside(before, tag) {
  const note = el.entryNote;
  if (!note) return;
  note.textContent = '';
  note.appendChild(document.createTextNode('\u201C'));
  const typed = document.createElement('span');
  typed.className = 'entry-note-text';
  typed.textContent = before;
  note.appendChild(typed);
  note.appendChild(document.createTextNode('\u201D typed before the scan: set aside, not recorded'));
  note.title = '\u201C' + before + '\u201D was typed before the scan of ' + tag + ': set aside, not recorded.';
  note.hidden = false;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(hideSetAside, SET_ASIDE_MS);
}

export function hideSetAside() {
  clearTimeout(noteTimer);
  if (el.entryNote) el.entryNote.hidden = true;
}

/** The held characters, taken out without going through the field (a tag that ends now). */
export function takeHeld() {
  clearTimeout(heldTimer);
  heldTimer = null;
  const text = held;
  held = '';
  return text;
}

/** Puts the held characters at the end of the entry field. */
export function flushHeld() {
  clearTimeout(heldTimer);
  heldTimer = null;
  if (!held) return;
  el.entry.value += held;
  held = '';
}
