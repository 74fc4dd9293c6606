/* What a barcode gun's burst is, one rule for every page: the kiosk and the back office load
 * this same file. A keyboard-wedge gun types a tag's characters a few milliseconds apart,
 * wherever the focus is, and ends it with Enter (or Tab); a person's keys come 100 ms and more
 * apart. Key times are the events' own timeStamps (when each key was pressed), not the moment a
 * handler runs: a page busy drawing handles a gun's keys late and far apart, and a person's keys
 * typed during that stall all at once, and neither may change what the keys were. */

export const GAP_MS = 50;          // at most this between two keys of a burst (people: 100 ms and more)
const MIN_LENGTH = 3;              // a burst of fewer characters is not taken as a tag
const END_GAP_MS = GAP_MS * 2;     // the Enter or Tab after a tag may come a little later

/** A keydown whose key the browser could not name: a key sent with its text alone (DevTools'
 *  `Input.dispatchKeyEvent` without `key`, as some test harnesses and remote keyboards send
 *  them). The pages leave it alone and read its keypress instead (`typedKey`). */
export function isUnidentified(e) {
  return e.key === '' || e.key === 'Unidentified';
}

/** The keypress of a key sent with its text alone (or a `char` event, which has no keydown), as
 *  the keydown the pages' key handlers read: its character, or Enter for a carriage return, at
 *  the keypress's time. Null for any other keypress: its keydown was read already. */
export function typedKey(e) {
  if (!isUnidentified(e) || e.isComposing || !(e.charCode === 13 || e.charCode >= 32)) return null;
  const enter = e.charCode === 13;
  return {
    type: 'keydown', key: enter ? 'Enter' : String.fromCharCode(e.charCode), code: '', timeStamp: e.timeStamp,
    shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, altKey: e.altKey, metaKey: e.metaKey, repeat: false, isComposing: false,
    getModifierState: function (name) { return e.getModifierState(name); },
    preventDefault: function () { e.preventDefault(); },
    stopPropagation: function () { e.stopPropagation(); },
    stopImmediatePropagation: function () { e.stopImmediatePropagation(); }
  };
}

/** A keypress listener that hands `handler` the keys sent with their text alone (`typedKey`),
 *  as the keydown listener beside it hands it every other key. */
export function typedKeys(handler) {
  return function (e) {
    const key = typedKey(e);
    if (key) handler(key);
  };
}

/** Keys a gun sends inside a burst that are not characters of the tag: Shift around capital
 *  letters, as a keyboard does, and CapsLock. They neither end nor interrupt a burst. */
export function isBurstModifier(e) {
  return e.key === 'Shift' || e.key === 'CapsLock';
}

/** A key that types one character (not a shortcut). */
export function isPrintable(e) {
  return e.key && e.key.length === 1 && !e.ctrlKey && !e.metaKey && !(e.altKey && !e.getModifierState('AltGraph'));
}

/** Enter, or Tab without Shift: the keys a gun sends after a tag. */
export function endsBurst(e) {
  return e.key === 'Enter' || (e.key === 'Tab' && !e.shiftKey);
}

/** The characters typed since the keys last paused. */
export class Burst {
  constructor() { this.clear(); }

  clear() {
    this.text = '';
    this.at = -1e9;            // the timeStamp of the burst's last character
  }

  /** A printable key pressed at `t`: answers whether it followed the character before within a
   *  gun's gap; when it did not, a new burst starts with it. */
  add(key, t) {
    const fast = t - this.at <= GAP_MS;
    if (!fast) this.text = '';
    this.text += key;
    this.at = t;
    return fast;
  }

  /** A Shift or CapsLock pressed at `t` (not a held key's repeat). A gun presses Shift around
   *  each capital letter: four key events for one character, which at 10–15 ms an event put up
   *  to 60 ms between two capitals. Inside a burst the next character is timed from it; it
   *  starts no burst itself. */
  modifier(t) {
    if (this.text && t - this.at <= GAP_MS) this.at = t;
  }

  /** Whether an ending key pressed at `t` ends a gun's tag: enough characters, and the key
   *  soon after the last of them. */
  endsTagAt(t) {
    return this.text.length >= MIN_LENGTH && t - this.at <= END_GAP_MS;
  }
}

/** Whether keys typed into `node` go into it as text (a text field or a text area). */
export function takesText(node) {
  if (!node || !node.tagName) return false;
  if (node.tagName === 'TEXTAREA' || node.isContentEditable) return true;
  if (node.tagName !== 'INPUT') return false;
  return ['text', 'search', 'password', 'number', 'email', 'tel', 'url'].indexOf((node.getAttribute('type') || 'text').toLowerCase()) >= 0;
}

/** A password field: what is typed into it is a password, never a tag (a password manager's
 *  auto-type or a badge reader types as fast as a gun). */
export function isSecret(node) {
  return !!node && node.tagName === 'INPUT' && (node.getAttribute('type') || '').toLowerCase() === 'password';
}

/** What a field held (its value and selection), to give it back after a burst. */
export function snapshot(node) {
  if (!node || !/^(INPUT|TEXTAREA|SELECT)$/.test(node.tagName || '') || typeof node.value !== 'string') return null;
  let start = null, end = null;
  try { start = node.selectionStart; end = node.selectionEnd; } catch (e) { /* a type without a selection */ }
  return { node: node, value: node.value, start: start, end: end };
}

/** Gives a field back what `snapshot` kept of it. */
export function restore(snap) {
  if (!snap || snap.node.value === snap.value) return;
  snap.node.value = snap.value;
  try { if (snap.start !== null) snap.node.setSelectionRange(snap.start, snap.end); } catch (e) { /* no selection */ }
  snap.node.dispatchEvent(new Event('input', { bubbles: true }));
}

/** A gun's keys as a page meets them wherever the focus is (the phone page and the back office;
 *  the kiosk's gun.js follows the same rule with its entry field). Window keydown and keyup, in
 *  the capture phase. A burst's characters never act on a control: inside a burst a space does
 *  not press the focused button or tick a box (on its keyup), and a letter does not pick a
 *  list's choice. `keydown` answers `{tag, restore}` when the key ends a gun's tag (else null):
 *  the page decides what the tag is there, `before` is what the focused field held before the
 *  burst's first key (`snapshot`), and `restore()` gives it back. Keys in a password field are
 *  never a burst. */
export class GunKeys {
  constructor() {
    this.burst = new Burst();
    this.before = null;
    this.swallowSpaceUp = false;
  }

  keydown(e) {
    if (e.isComposing || isUnidentified(e)) return null;
    const target = document.activeElement;
    if (isSecret(target)) { this.burst.clear(); return null; }
    const t = e.timeStamp;
    if (isPrintable(e)) {
      const fast = this.burst.add(e.key, t);
      if (!fast) this.before = snapshot(target);
      // On a control that takes no text (a button, a link, a box, a list), a burst's key does nothing.
      if (fast && target && target !== document.body && !takesText(target)) {
        e.preventDefault();
        if (e.key === ' ') this.swallowSpaceUp = true;
      }
      return null;
    }
    if (isBurstModifier(e)) {
      if (!e.repeat) this.burst.modifier(t);
      return null;
    }
    const isTag = endsBurst(e) && this.burst.endsTagAt(t);
    const tag = this.burst.text.trim(), snap = this.before;
    this.burst.clear();
    this.before = null;
    if (!isTag || !tag) return null;
    return { tag: tag, before: snap, restore: function () { restore(snap); } };
  }

  keyup(e) {
    if (e.key === ' ' && this.swallowSpaceUp) {
      this.swallowSpaceUp = false;
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }
}
