/* A page's scan queue: each scan is kept in localStorage, under its own scan_id, from the moment
 * it is made until the server has answered it, and is sent one at a time, in the order the scans
 * were made. A scan whose answer was lost (the Wi-Fi dropped, the page was reloaded) is sent
 * again with the same scan_id, which the server answers as it did the first time; its outcome is
 * shown once (the scan_ids shown are kept too). Nothing here knows the page: `send` makes the
 * call and the callbacks show what came back. */

import { arr, obj, parseJSON, storageGet, storageSet } from './format.js';

const SHOWN_LIMIT = 2000;

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
    this.send = send;
    this.on = callbacks;
    this.busy = false;
    this.offline = false;
    this.paused = false;
    this.timer = null;
    this.delay = 1000;
  }

  items() { return arr(parseJSON(storageGet(this.key) || '[]')).filter(function (i) { return obj(i) && i.scan_id; }); }
  save(items) { return storageSet(this.key, JSON.stringify(items)); }
  get waiting() { return this.items().length; }

  /** Keeps the scan, then sends what waits. Answers false if the browser could not keep it. */
  add(item) {
    const items = this.items();
    items.push(item);
    const kept = this.save(items);
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
      this.save(this.items().filter(function (i) { return i.scan_id !== item.scan_id; }));
      this.offline = false;
      this.delay = 1000;
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
    const wait = answer.retryAfter ? answer.retryAfter * 1000 : this.delay;
    this.delay = Math.min(this.delay * 2, 8000);
    const self = this;
    this.timer = setTimeout(function () { self.pump(); }, wait);
  }
}
