/* What the phone shows and plays for each scan, for a person walking: the outcome box with the
 * kiosk's words and colours, its sound, and a vibration pattern that differs for found,
 * already scanned, misplaced and every problem. Also the four numbers (kept by revision) and
 * the last scans. */

import { $, make } from './elements.js';
import { arr, fmtInt, fmtTime, obj, str } from './format.js';
import { STATUS, assetName, firstScanText, reasonText, statusOf } from './words.js';
import { ensureAudio, playSound } from './sound.js';

const VIBRATE = {
  found_expected: [60],
  already_scanned: [40, 80, 40],
  misplaced: [200, 100, 200],
  location: [30, 60, 30, 60, 30],
  problem: [500, 150, 500]
};
const PROBLEMS = ['unexpected', 'unknown', 'rejected'];
const RECENT_LIMIT = 20;

const hooks = window.scanPage = window.scanPage || {};
hooks.outcomes = [];
hooks.vibrations = [];


function vibrate(status) {
  const pattern = VIBRATE[status] || (PROBLEMS.indexOf(status) >= 0 ? VIBRATE.problem : null);
  if (!pattern) return;
  hooks.vibrations.push({ status: status, pattern: pattern });
  try { if (navigator.vibrate) navigator.vibrate(pattern); } catch (e) { /* not offered */ }
}

/** Shows `status` ('found_expected', 'misplaced', …, 'rejected', 'pending', 'location',
 *  'idle') for `tag`, with `info` under it (and `title` in place of the status's own); sounds
 *  and vibrates when `loud`. */
export function show(status, tag, info, loud, scanId, title) {
  const look = STATUS[status] || STATUS.unknown;
  const box = $('outcome');
  box.setAttribute('data-status', status);
  box.setAttribute('data-scan-id', str(scanId));
  $('outcome-symbol').textContent = look.symbol;
  $('outcome-title').textContent = title || look.title;
  $('outcome-tag').textContent = str(tag);
  $('outcome-info').textContent = str(info);
  hooks.outcomes.push({ status: status, identifier: str(tag), scan_id: scanId || null, at: performance.timeOrigin + performance.now() });
  if (hooks.outcomes.length > 2000) hooks.outcomes.shift();
  if (loud) {
    ensureAudio();
    playSound(status === 'awaiting' ? 'found_expected' : status);
    vibrate(status);
  }
}

/** The outcome of a scan the server answered (a ScanResult). */
export function showResult(result, loud) {
  const status = statusOf(result);
  let info = '';
  const name = assetName(result);
  if (status === 'misplaced') info = 'Belongs at ' + str(result.registered_location || obj(result.asset) && result.asset.location) + (name ? ' \u2014 ' + name : '');
  else if (status === 'already_scanned') info = firstScanText(result, 'First scanned') || 'Scanned before in this audit';
  else if (status === 'unexpected') info = reasonText(result) || str(result.message);
  else if (status === 'unknown') info = firstScanText(result, 'Already recorded') || 'No asset has this tag or serial number';
  else info = name || str(result.message);
  show(status, result.identifier, info, loud, result.scan_id);
  return status;
}

/** The four numbers, unless `p` is older than those shown (a lower revision of the same audit). */
export function renderNumbers(state, auditId, p) {
  p = obj(p);
  if (!p) return;
  const shown = state.progress;
  if (shown && shown.audit_id === auditId && typeof p.revision === 'number' && typeof shown.revision === 'number' &&
    p.revision < shown.revision) return;
  state.progress = Object.assign({ audit_id: auditId }, p);
  $('n-expected').textContent = fmtInt(p.total_assets);
  $('n-found').textContent = fmtInt(p.scanned_count);
  $('n-missing').textContent = fmtInt(p.missing_count !== undefined ? p.missing_count : p.total_assets - p.scanned_count);
  $('n-unexpected').textContent = fmtInt(p.unexpected_count);
}

/** The last scans, newest first; each {scan_id, identifier, status, name, at, voided, waiting}. */
export function renderRecent(list) {
  const ol = $('recent-list');
  ol.textContent = '';
  arr(list).slice(0, RECENT_LIMIT).forEach(function (r) {
    const look = STATUS[r.status] || STATUS.unknown;
    const li = make('li');
    li.setAttribute('data-status', r.status);
    if (r.voided) li.setAttribute('data-voided', 'true');
    li.appendChild(make('span', 'symbol', look.symbol));
    const text = make('span', 'text');
    text.appendChild(make('strong', null, str(r.identifier)));
    text.appendChild(make('span', 'word', (r.voided ? 'Undone \u2014 ' : '') + (r.waiting ? 'Waits to be sent' : look.word) +
      (r.name ? ' \u00B7 ' + r.name : '')));
    li.appendChild(text);
    li.appendChild(make('time', null, fmtTime(r.at)));
    ol.appendChild(li);
  });
}

export const recentLimit = RECENT_LIMIT;
