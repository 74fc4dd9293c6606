/* A page's scan queue, shared by the phone page and the kiosk page. Each scan is kept in
 * localStorage, under its own scan_id, from the moment it is made until the server has answered
 * it (`StoredScans`), and sent in the order the scans were made; after a failure it is sent
 * again with a growing delay (`Backoff`). A scan whose answer was lost (the Wi-Fi dropped, the
 * page was reloaded) is sent again with the same scan_id, which the server answers as it did the
 * first time; its outcome is shown once (the scan_ids shown are kept too).
 *
 * `ScanQueue` sends one scan a request (the phone, to the audit API). The kiosk sends batches of
 * up to 50 to its own service and holds pushed events for the batch on its way (its
 * scanqueue.js), over the same `StoredScans` and `Backoff`. Nothing here knows a page: `send`
 * makes the call and the callbacks show what came back. */

import { arr, obj, parseJSON, storageGet, storageSet } from './format.js';

const SHOWN_LIMIT = 2000;

/** The scans kept under one localStorage key, in the order they were made. `valid(item)`: whether
 *  a stored item is a scan (the rest is dropped when read). */
export class StoredScans {
  constructor(key, valid) {
    this.key = key;
    this.valid = valid || function (i) { return obj(i) && typeof i.scan_id === 'string' && i.scan_id !== ''; };
  }

  /** What is stored now (another tab may have changed it). */
  load() { return arr(parseJSON(storageGet(this.key) || '[]')).filter(this.valid); }

  /** Stores `items`; answers false if the browser could not keep them (storage full or off). */
  save(items) { return storageSet(this.key, JSON.stringify(items)); }

  /** `items` with the stored scans they do not have yet (added by another tab), in order. */
  merged(items) {
    const known = new Set(items.map(function (i) { return i.scan_id; }));
    return items.concat(this.load().filter(function (i) { return !known.has(i.scan_id); }));
  }

  /** Takes the answered scans out, keeping what other tabs added meanwhile; stores and answers
   *  what is left. */
  remove(items, scanIds) {
    const answered = new Set(scanIds);
    const left = this.merged(items).filter(function (i) { return !answered.has(i.scan_id); });
    this.save(left);
    return left;
  }
}

/** The wait before the next try after a failure: `first` ms, doubled after each failure up to
 *  `max`, and `first` again after a success. */
export class Backoff {
  constructor(first, max) {
    this.first = first;
    this.max = max;
    this.delay = first;
  }

  /** The wait before the next try, after one more failure. */
  next() {
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, this.max);
    return wait;
  }

  reset() { this.delay = this.first; }
}

/** Whether an answer means "try again later": no answer, a timeout, too many requests, the
 *  server busy or failing. Anything else 4xx is the server's refusal of the scan itself. */
export function retryable(status) {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

export class ScanQueue {
  /** `key`: the localStorage key. `send(item)`: answers {ok, status, data, message, code,
   *  retryAfter}. `answered(item, data)`, `refused(item, answer)`, `changed(waiting, offline)`,
   *  `needsLogin()`: told as it happens. */
  constructor(key, send, callbacks) {
    this.key = key;
    this.store = new StoredScans(key);
    this.send = send;
    this.on = callbacks;
    this.busy = false;
    this.offline = false;
    this.paused = false;
    this.timer = null;
    this.backoff = new Backoff(1000, 8000);
  }

  items() { return this.store.load(); }
  get waiting() { return this.items().length; }

  /** Keeps the scan, then sends what waits. Answers false if the browser could not keep it. */
  add(item) {
    const kept = this.store.save(this.items().concat([item]));
    this.changed();
    this.pump();
    return kept;
  }

  shown(scanId) { return arr(parseJSON(storageGet(this.key + '.shown') || '[]')).indexOf(scanId) >= 0; }
  markShown(scanId) {
    const list = arr(parseJSON(storageGet(this.key + '.shown') || '[]'));
    if (list.indexOf(scanId) >= 0) return;
    list.push(scanId);
    storageSet(this.key + '.shown', JSON.stringify(list.slice(-SHOWN_LIMIT)));
  }

  changed() { if (this.on.changed) this.on.changed(this.waiting, this.offline); }

  /** After a login: sending goes on. */
  resume() { this.paused = false; this.pump(); }

  /** Sends the oldest scan, then the next, until none waits or the server cannot take one. */
  async pump() {
    if (this.busy || this.paused) return;
    clearTimeout(this.timer);
    const item = this.items()[0];
    if (!item) { this.offline = false; this.changed(); return; }
    this.busy = true;
    let answer;
    try { answer = await this.send(item); } catch (e) { answer = { ok: false, status: 0, message: String(e) }; }
    this.busy = false;
    if (answer.ok || (!retryable(answer.status) && answer.status !== 401)) {
      this.store.remove(this.items(), [item.scan_id]);
      this.offline = false;
      this.backoff.reset();
      const first = !this.shown(item.scan_id);
      this.markShown(item.scan_id);
      if (answer.ok) this.on.answered(item, answer.data, first);
      else this.on.refused(item, answer, first);
      this.changed();
      this.pump();
      return;
    }
    if (answer.status === 401) {
      this.paused = true;
      this.changed();
      if (this.on.needsLogin) this.on.needsLogin();
      return;
    }
    this.offline = true;
    this.changed();
    const delay = this.backoff.next();
    const wait = answer.retryAfter ? answer.retryAfter * 1000 : delay;
    const self = this;
    this.timer = setTimeout(function () { self.pump(); }, wait);
  }
}
