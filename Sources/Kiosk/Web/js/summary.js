/* The summary screen of an ended audit: its numbers, who started and ended it and when, the
 * missing and unexpected assets, and the links to the CSV and JSON reports. */

import { app } from './app.js';
import { $, make, setText } from './elements.js';
import { el } from './dom.js';
import { arr, fmtCompletion, fmtDuration, fmtInt, fmtTime, num, obj, parseTime, plural, str } from './format.js';
import { api, errorMessage } from './api.js';
import { loadSummaryLists } from './lists.js';
import { loadSummaryPlaces } from './progress.js';

let summaryLoading = null;   // the audit id being fetched
let summaryPlacesFor = null; // the audit whose by-location panel is shown

export function showSummaryError(text) {
  el.summaryError.hidden = !text;
  setText(el.summaryError, text ? '\u26A0 ' + text : '');
}

export function ensureSummary(audit) {
  if (app.summary && obj(app.summary.audit) && app.summary.audit.id === audit.id) { renderSummary(); return; }
  app.summary = { audit: audit, duration_seconds: null, missing: null, unexpected: null };
  renderSummary();
  if (summaryLoading === audit.id) return;
  summaryLoading = audit.id;
  api('GET', '/api/summary?audit_id=' + encodeURIComponent(audit.id), null, 30000).then(function (res) {
    summaryLoading = null;
    const s = obj(res.data) && obj(res.data.summary);
    if (res.ok && s && obj(s.audit)) {
      if (app.screen === 'summary' && app.summary && app.summary.audit && app.summary.audit.id === s.audit.id) {
        app.summary = s;
        showSummaryError('');
        renderSummary();
      }
    } else {
      showSummaryError(errorMessage(res, 'The summary could not be loaded'));
    }
  }, function () {
    summaryLoading = null;
    showSummaryError('The summary could not be loaded: the kiosk service is not responding.');
  });
}

/** Why the scanning screen went away when the audit was ended elsewhere (another station, the
 *  back office), and what became of this station's scans. */
function renderNotice(a) {
  const s = app.state || {};
  const shown = obj(s.audit);
  const parts = [];
  if (s.ended_elsewhere === true && shown && shown.id === a.id && a.is_active === false) {
    parts.push('This audit was ended' + (a.ended_by ? ' by ' + str(a.ended_by) : '') + (a.ended_at ? ' at ' + fmtTime(a.ended_at) : '') +
      ' on another station or in the back office, so this kiosk takes no more scans into it.');
  }
  const c = obj(s.connection) || {};
  if (shown && shown.id === a.id) {
    const waiting = num(c.audit_pending_scans), refused = num(c.audit_refused_scans);
    if (waiting) parts.push(plural(waiting, 'scan', 'scans') + ' made here ' + (waiting === 1 ? 'is' : 'are') + ' still waiting for the server: they are kept on this station and sent as soon as it can be reached.');
    if (refused) parts.push(plural(refused, 'scan', 'scans') + ' made here ' + (refused === 1 ? 'was' : 'were') + ' refused by the server and ' + (refused === 1 ? 'does' : 'do') + ' not count.');
  }
  el.summaryNotice.hidden = parts.length === 0;
  setText(el.summaryNotice, parts.length ? '\u26A0 ' + parts.join(' ') : '');
}

export function renderSummary() {
  const s = app.summary || {};
  const a = obj(s.audit) || {};
  setText(el.summaryHeading, (a.is_active === false ? 'Audit of ' : 'Running audit of ') + str(a.country) + (a.is_active === false ? ' ended' : ''));
  setText(el.summaryTotal, fmtInt(a.total_assets));
  setText(el.summaryScanned, fmtInt(a.scanned_count));
  setText(el.summaryMissing, fmtInt(a.missing_count));
  setText(el.summaryUnexpected, fmtInt(a.unexpected_count));
  setText(el.summaryPercent, fmtCompletion(a.completion_percentage));
  let seconds = s.duration_seconds;
  if (seconds === null || seconds === undefined) {
    const st = parseTime(a.started_at), en = parseTime(a.ended_at);
    seconds = st && en ? (en - st) / 1000 : null;
  }
  setText(el.summaryDuration, seconds === null ? '\u2013' : fmtDuration(seconds));
  el.summaryTimes.textContent = '';
  const addPart = function (label, who, when) {
    if (!who && !when) return;
    if (el.summaryTimes.childNodes.length) el.summaryTimes.appendChild(document.createTextNode(' \u00B7 '));
    el.summaryTimes.appendChild(document.createTextNode(label + ' '));
    if (when) el.summaryTimes.appendChild(make('strong', null, fmtTime(when)));
    if (who) {
      el.summaryTimes.appendChild(document.createTextNode(' by '));
      el.summaryTimes.appendChild(make('strong', null, str(who)));
    }
  };
  addPart('Started', a.started_by, a.started_at);
  addPart('Ended', a.ended_by, a.ended_at);
  const id = encodeURIComponent(str(a.id));
  el.downloadCsv.href = '/api/report?audit_id=' + id + '&format=csv';
  el.downloadJson.href = '/api/report?audit_id=' + id + '&format=json';
  el.downloadCsv.setAttribute('download', 'audit-' + str(a.country) + '-' + str(a.id).slice(0, 8) + '.csv');
  el.downloadJson.setAttribute('download', 'audit-' + str(a.country) + '-' + str(a.id).slice(0, 8) + '.json');
  el.downloadPdf.href = '/api/report?audit_id=' + id + '&format=pdf';
  el.downloadPdf.setAttribute('download', 'audit-' + str(a.country) + '-' + str(a.id).slice(0, 8) + '.pdf');
  renderNotice(a);
  setText(el.summaryMissingCount, '(' + fmtInt(a.missing_count) + ')');
  setText(el.summaryUnexpectedCount, '(' + fmtInt(a.unexpected_count) + ')');
  loadSummaryLists();
  if (a.id && summaryPlacesFor !== a.id) {
    summaryPlacesFor = a.id;
    el.summaryPlacesCard.hidden = true;
    loadSummaryPlaces(a.id);
  }
}
