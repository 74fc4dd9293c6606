/* The words of each scan outcome and each reason, and how an outcome is named: one copy, for
 * every screen that shows a scan (the outcome box, Last scans, the lists). */

import { fmtTime, obj, str } from './format.js';

export const STATUS = {
  found_expected: { symbol: '\u2714', title: 'FOUND', word: 'Found' },
  misplaced: { symbol: '\u21C4', title: 'MISPLACED', word: 'Misplaced' },
  already_scanned: { symbol: '\u21BA', title: 'ALREADY SCANNED', word: 'Already scanned' },
  unexpected: { symbol: '\u26A0', title: 'UNEXPECTED', word: 'Unexpected' },
  unknown: { symbol: '?', title: 'UNKNOWN TAG', word: 'Unknown tag' },
  rejected: { symbol: '\u2716', title: 'NOT RECORDED', word: 'Not recorded' },
  pending: { symbol: '\u2026', title: 'SENDING\u2026', word: 'Sending' },
  // A connected station's scan of a tag outside its copy: the server decides it.
  awaiting: { symbol: '\u25F7', title: 'PENDING', word: 'Pending' },
  location: { symbol: '\u25CE', title: 'LOCATION', word: 'Location' },
  // The tag of an accessory the audit expects: one more counted here (the page asks "How many?").
  accessory_counted: { symbol: '#', title: 'COUNTED', word: 'Counted' },
  idle: { symbol: '\u25B8', title: 'READY', word: 'Ready' }
};

export const REASONS = {
  other_country: 'Registered in another country',
  archived: 'Archived asset: not expected in this audit',
  disposed: 'Disposed asset: not expected in this audit',
  not_in_expected_set: 'Not in the expected set when this audit started',
  unknown: 'No asset has this tag or serial number',
  other_location: 'Registered at a location this audit does not cover'
};

export function statusOf(ev) {
  if (ev.kind === 'rejected') return 'rejected';
  if (ev.kind === 'location') return 'location';
  if (ev.status === 'pending') return 'awaiting';
  if (ev.status === 'found_expected' && ev.misplaced === true) return 'misplaced';
  return STATUS[ev.status] && ev.status !== 'pending' && ev.status !== 'idle' && ev.status !== 'rejected' ? ev.status : 'unknown';
}

export function reasonText(ev) {
  const reason = str(ev.reason);
  if (!reason || !REASONS[reason]) return '';
  let text = REASONS[reason];
  const asset = obj(ev.asset);
  if (reason === 'other_country' && asset && asset.country) text += ' (' + str(asset.country) + ')';
  return text;
}

export function firstScanText(ev, verb) {
  const f = obj(ev.first_scan);
  if (!f) return '';
  const parts = [verb];
  if (f.user) parts.push('by ' + str(f.user));
  if (f.station) parts.push('at ' + str(f.station));
  const t = f.scanned_at ? fmtTime(f.scanned_at) : '';
  return parts.join(' ') + (t ? ', ' + t : '');
}

export function assetName(ev) {
  const asset = obj(ev.asset);
  if (!asset) return str(ev.asset_name);
  let name = str(asset.name);
  if (asset.model && name.indexOf(str(asset.model)) < 0) name += (name ? ' \u00B7 ' : '') + str(asset.model);
  return name;
}

