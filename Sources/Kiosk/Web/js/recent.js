/* The last scans of the audit, newest first, as the kiosk's state lists them and as scans come. */

import { el, make } from './dom.js';
import { fmtTime, obj, str } from './format.js';
import { STATUS, assetName, reasonText, statusOf } from './outcomes.js';

const RECENT_LIMIT = 20;

let recent = [];   // ScanEvents, newest first

export function mergeRecent(events, replace) {
  if (replace) {
    var fromServer = events.filter(function (e) { return obj(e); });
    // Keep local refusals the kiosk never stored (413, 415, …) on top if they are newer.
    recent = fromServer.slice(0, RECENT_LIMIT);
  } else {
    events.forEach(function (ev) {
      if (!obj(ev)) return;
      if (ev.scan_id) {
        for (var i = 0; i < recent.length; i++) {
          if (recent[i].scan_id === ev.scan_id) { recent.splice(i, 1); break; }
        }
      }
      recent.unshift(ev);
    });
    if (recent.length > RECENT_LIMIT) recent.length = RECENT_LIMIT;
  }
  renderRecent();
}

function renderRecent() {
  var frag = document.createDocumentFragment();
  recent.forEach(function (ev) {
    var status = statusOf(ev);
    var look = STATUS[status];
    var li = make('li');
    li.setAttribute('data-status', status);
    if (ev.scan_id) li.setAttribute('data-scan-id', str(ev.scan_id));
    li.appendChild(make('span', 'chip', look.symbol + ' ' + look.word)).setAttribute('data-status', status);
    var id = make('span', 'r-id', str(ev.identifier));
    id.title = str(ev.identifier);
    li.appendChild(id);
    var name = assetName(ev);
    if (status === 'unexpected' && reasonText(ev)) name = (name ? name + ' \u2014 ' : '') + reasonText(ev);
    if (status === 'rejected') name = str(ev.message);
    li.appendChild(make('span', 'r-name', name));
    var meta = [];
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

/** A new audit: its last scans come with its state. */
export function forgetRecent() { recent = []; }
