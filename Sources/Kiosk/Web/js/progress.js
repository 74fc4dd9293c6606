/* The audit's numbers (expected, scanned, missing, unexpected) and its completion bar. Within one
 * audit they only grow, so a late answer never moves them back. */

import { app } from './app.js';
import { el, setText } from './dom.js';
import { fmtInt, fmtPercent, num, obj } from './format.js';
import { renderListHeaders } from './lists.js';

/** Shows the numbers of `auditId`. Within one audit the counts only grow, so an older answer
 *  that arrives late (a POST answer after a newer pushed event) never moves them back. */
export function applyProgress(auditId, p, force) {
  p = obj(p);
  if (!p || !auditId) return;
  if (app.progress && app.progress.audit_id === auditId && !force) {
    if (num(p.scanned_count) < app.progress.scanned_count && num(p.unexpected_count) <= app.progress.unexpected_count) return;
    if (num(p.unexpected_count) < app.progress.unexpected_count && num(p.scanned_count) <= app.progress.scanned_count) return;
  }
  app.progress = {
    audit_id: auditId,
    total_assets: num(p.total_assets),
    scanned_count: num(p.scanned_count),
    missing_count: num(p.missing_count),
    unexpected_count: num(p.unexpected_count),
    completion_percentage: num(p.completion_percentage)
  };
  if (app.state && obj(app.state.audit) && app.state.audit.id === auditId) {
    ['total_assets', 'scanned_count', 'missing_count', 'unexpected_count', 'completion_percentage'].forEach(function (k) {
      app.state.audit[k] = app.progress[k];
    });
  }
  renderProgress();
  renderListHeaders();
}

export function renderProgress() {
  var p = app.progress || { total_assets: 0, scanned_count: 0, missing_count: 0, unexpected_count: 0, completion_percentage: 0 };
  var pct = Math.max(0, Math.min(100, p.completion_percentage));
  setText(el.countTotal, fmtInt(p.total_assets));
  setText(el.countScanned, fmtInt(p.scanned_count));
  setText(el.countMissing, fmtInt(p.missing_count));
  setText(el.countUnexpected, fmtInt(p.unexpected_count));
  setText(el.percent, fmtPercent(pct));
  el.progressBar.setAttribute('aria-valuenow', fmtPercent(pct));
  el.progressBar.setAttribute('aria-valuetext', fmtPercent(pct) + '% complete: ' + fmtInt(p.scanned_count) + ' of ' +
    fmtInt(p.total_assets) + ' scanned');
  el.progressFill.style.width = pct + '%';
}
