/* What a barcode gun's burst is, one rule for every page: the kiosk and the back office load
 * this same file. A keyboard-wedge gun types a tag's characters a few milliseconds apart,
 * wherever the focus is, and ends it with Enter (or Tab); a person's keys come 100 ms and more
 * apart. Key times are the events' own timeStamps (when each key was pressed), not the moment a
 * handler runs: a page busy drawing handles a gun's keys late and far apart, and a person's keys
 * typed during that stall all at once, and neither may change what the keys were. */

export const GAP_MS = 50;          // at most this between two keys of a burst (people: 100 ms and more)
const MIN_LENGTH = 3;              // a burst of fewer characters is not taken as a tag
const END_GAP_MS = GAP_MS * 2;     // the Enter or Tab after a tag may come a little later

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

  /** Whether an ending key pressed at `t` ends a gun's tag: enough characters, and the key
   *  soon after the last of them. */
  endsTagAt(t) {
    return this.text.length >= MIN_LENGTH && t - this.at <= END_GAP_MS;
  }
}
