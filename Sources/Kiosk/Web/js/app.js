/* What several modules share about the page: the kiosk's last state, the screen shown, the
 * summary and the progress shown. One object, so that every module reads and sets the same
 * values (an imported binding cannot be assigned). */

export const app = {
  state: null,            // the last State from the kiosk
  screen: 'loading',      // loading, pin, start, scan or summary
  summary: null,          // {audit, duration_seconds, missing, unexpected} of the audit shown
  progress: null          // {audit_id, total_assets, scanned_count, ...} currently shown
};

/** Runs `run` after `delay` ms, unless a run already waits to start sooner: the earliest time
 *  asked for stands. A burst of scans (one every few hundred ms, each asking for a reload a
 *  little later) so no longer pushes a reload back scan after scan until the burst ends, and
 *  the lists and the location panel follow the counters within about a second. `timer` holds
 *  {timer, due}. */
export function soonest(timer, delay, run) {
  const due = Date.now() + (delay || 0);
  if (timer.timer && timer.due <= due) return;
  clearTimeout(timer.timer);
  timer.due = due;
  timer.timer = setTimeout(function () { timer.timer = null; run(); }, delay || 0);
}
