/* Pure helpers: values from the kiosk made safe to use (str, obj, arr, num), numbers, times and
 * durations as the page writes them, localStorage that never throws, JSON that never throws,
 * and random scan ids (UUID v4). No elements and no page state. */

export function str(v) { return v === null || v === undefined ? '' : String(v); }
export function obj(v) { return v && typeof v === 'object' && !Array.isArray(v) ? v : null; }
export function arr(v) { return Array.isArray(v) ? v : []; }
export function num(v) { const n = Number(v); return isFinite(n) ? n : 0; }
export function fmtInt(v) { return Math.round(num(v)).toLocaleString('en-US'); }
/* An audit's completion as every page, report and PDF writes it (InventoryCore's
 * `Completion.text`): one decimal, 100.0 only when nothing is missing and 0.0 only when
 * nothing is scanned, so 99.96 is 99.9 and 0.004 is 0.1. Without the % sign. */
export function fmtCompletion(v) {
  const p = num(v);
  if (p >= 100) return '100.0';
  if (p <= 0) return '0.0';
  return Math.min(99.9, Math.max(0.1, Math.floor(p * 10 + 1e-9) / 10)).toFixed(1);
}

export function parseTime(iso) {
  if (!iso) return null;
  const d = new Date(iso);
  return isNaN(d.getTime()) ? null : d;
}

function two(n) { return (n < 10 ? '0' : '') + n; }

export function fmtTime(iso) {
  const d = parseTime(iso);
  if (!d) return str(iso);
  const t = two(d.getHours()) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds());
  const now = new Date();
  if (d.toDateString() === now.toDateString()) return t;
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  let day = d.getDate() + ' ' + months[d.getMonth()];
  if (d.getFullYear() !== now.getFullYear()) day += ' ' + d.getFullYear();
  return day + ', ' + t;
}

export function fmtDuration(seconds) {
  const s = Math.max(0, Math.round(num(seconds)));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  if (h > 0) return h + ' h ' + two(m) + ' min';
  if (m > 0) return m + ' min ' + two(r) + ' s';
  return r + ' s';
}

export function plural(n, one, many) { return fmtInt(n) + ' ' + (num(n) === 1 ? one : many); }

export function storageGet(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }
export function storageSet(key, value) { try { window.localStorage.setItem(key, value); return true; } catch (e) { return false; } }

export function newScanId() {
  const b = new Uint8Array(16);
  if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(b);
  else for (let i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [];
  for (let j = 0; j < 16; j++) h.push((b[j] + 0x100).toString(16).slice(1));
  return h.slice(0, 4).join('') + '-' + h.slice(4, 6).join('') + '-' + h.slice(6, 8).join('') + '-' +
    h.slice(8, 10).join('') + '-' + h.slice(10, 16).join('');
}

export function parseJSON(text) { try { return JSON.parse(text); } catch (e) { return null; } }

/** An answer's body read to its end: its JSON object, and `problem` when there is no answer that
 *  counts: 'cut' (the body stopped short: the network dropped after the server may have acted)
 *  or 'foreign' (an OK that is not JSON, such as a Wi-Fi network's sign-in page). */
export async function readBody(response) {
  let text;
  try { text = await response.text(); } catch (e) { return { json: null, problem: 'cut' }; }
  const json = text ? obj(parseJSON(text)) : null;
  return { json: json, problem: response.ok && text && !json ? 'foreign' : null };
}

/** A gun typing into a Chinese or Japanese input method in full-width mode sends ＣＭＤ：ＵＮＤＯ
 *  for CMD:UNDO: full-width ASCII and the ideographic space read as the ASCII they stand for,
 *  as the station reads every identifier (Identifier.foldingFullWidth). */
export function fromFullWidth(text) {
  return String(text).replace(/[\uFF01-\uFF5E]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) - 0xFEE0); })
    .replace(/\u3000/g, ' ');
}

/** Whether a scanned text is the undo command label (`audit-station assets labels --command
 *  undo`, CommandLabel.undo): letter case, full width and spaces around it aside. It is never a
 *  tag, never sent as a scan, on the kiosk and on the phone alike. */
export function isUndoCommand(text) {
  return fromFullWidth(str(text)).trim().toUpperCase() === 'CMD:UNDO';
}
