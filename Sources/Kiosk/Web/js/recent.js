/* The last scans of the audit, newest first: from the audit's trail in the store as the kiosk's
 * state lists them (they survive a restart and include other stations' scans, with the station
 * and the user), and as scans come. An undone scan is struck through; a scan whose camera photo
 * is kept has a small picture that opens it. "to sync" comes with the kiosk's state, from the
 * outbox that the top bar's count of scans waiting comes from. */

import { app } from './app.js';
import { make } from './elements.js';
import { el } from './dom.js';
import { fmtTime, obj, str } from './format.js';
import { photoButton } from './dialog.js';
import { STATUS, assetName, reasonText, statusOf } from './words.js';

const RECENT_LIMIT = 20;

let recent = [];   // ScanEvents, newest first

export function mergeRecent(events, replace) {
  if (replace) {
    const fromServer = events.filter(function (e) { return obj(e); });
    // Keep local refusals the kiosk never stored (413, 415, …) on top if they are newer.
    recent = fromServer.slice(0, RECENT_LIMIT);
  } else {
    events.forEach(function (ev) {
      if (!obj(ev)) return;
      if (ev.scan_id) {
        for (let i = 0; i < recent.length; i++) {
          if (recent[i].scan_id === ev.scan_id) { recent.splice(i, 1); break; }
        }
      }
      recent.unshift(ev);
    });
    if (recent.length > RECENT_LIMIT) recent.length = RECENT_LIMIT;
  }
  scheduleRecent();
}

/* The list is drawn once for all the scans of one task (a batch's 20 answers), at its end,
 * before the page is painted. */
let recentQueued = false;
function scheduleRecent() {
  if (recentQueued) return;
  recentQueued = true;
  queueMicrotask(function () {
    recentQueued = false;
    renderRecent();
  });
}

function renderRecent() {
  const frag = document.createDocumentFragment();
  recent.forEach(function (ev) {
    const status = statusOf(ev);
    const look = STATUS[status];
    const li = make('li');
    li.setAttribute('data-status', status);
    if (ev.scan_id) li.setAttribute('data-scan-id', str(ev.scan_id));
    li.appendChild(make('span', 'chip', look.symbol + ' ' + look.word)).setAttribute('data-status', status);
    const id = make('span', 'r-id', str(ev.identifier));
    id.title = str(ev.identifier);
    li.appendChild(id);
    let name = assetName(ev);
    if (status === 'unexpected' && reasonText(ev)) name = (name ? name + ' \u2014 ' : '') + reasonText(ev);
    if (status === 'rejected') name = str(ev.message);
    if (status === 'location') name = 'Now at ' + str(ev.location);
    if (status === 'misplaced') name = (name ? name + ' \u2014 ' : '') + 'registered at ' + str(ev.registered_location || 'another location');
    if ((status === 'unknown' || status === 'awaiting') && ev.did_you_mean) name = 'Did you mean ' + str(ev.did_you_mean) + '? (Caps Lock?)';
    if (ev.voided === true) {
      li.setAttribute('data-voided', 'true');
      name = (name ? name + ' \u2014 ' : '') + 'undone';
    }
    li.appendChild(make('span', 'r-name', name));
    if (ev.has_photo === true && ev.scan_id && ev.audit_id) {
      li.appendChild(photoButton(str(ev.audit_id), str(ev.scan_id), str(ev.identifier)));
    }
    const meta = [];
    const here = str(app.state && app.state.station);
    if (ev.station && str(ev.station) !== here) meta.push(str(ev.station));
    if (ev.user) meta.push(str(ev.user));
    if (ev.at) meta.push(fmtTime(ev.at));
    if (ev.source === 'camera') meta.push('camera');
    if (ev.pending === true) meta.push('to sync');
    li.appendChild(make('span', 'r-meta', meta.join(' \u00B7 ')));
    frag.appendChild(li);
  });
  el.recent.textContent = '';
  el.recent.appendChild(frag);
  el.recentEmpty.hidden = recent.length > 0;
}

/** A scan was undone: struck through where it is listed. */
export function markVoided(scanId) {
  let changed = false;
  recent.forEach(function (ev) { if (ev.scan_id === scanId && ev.voided !== true) { ev.voided = true; changed = true; } });
  if (changed) scheduleRecent();
}

/** The camera's photo of a scan was kept: its row gets the picture. */
export function markPhoto(scanId) {
  let changed = false;
  recent.forEach(function (ev) { if (ev.scan_id === scanId && ev.has_photo !== true) { ev.has_photo = true; changed = true; } });
  if (changed) scheduleRecent();
}

/** The newest scan this station recorded that can still be undone (null: none). */
export function lastUndoable() {
  const here = str(app.state && app.state.station);
  for (let i = 0; i < recent.length; i++) {
    const ev = recent[i];
    if (ev.kind !== 'result' || ev.voided === true || ev.status === 'pending' || !ev.scan_id) continue;
    if (ev.station && str(ev.station) !== here) continue;
    return ev;
  }
  return null;
}

/** A new audit: its last scans come with its state. */
export function forgetRecent() { recent = []; }
