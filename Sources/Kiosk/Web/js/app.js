/* What several modules share about the page: the kiosk's last state, the screen shown, the
 * summary and the progress shown. One object, so that every module reads and sets the same
 * values (an imported binding cannot be assigned). */

export const app = {
  state: null,            // the last State from the kiosk
  screen: 'loading',      // loading, pin, start, scan or summary
  summary: null,          // {audit, duration_seconds, missing, unexpected} of the audit shown
  progress: null          // {audit_id, total_assets, scanned_count, ...} currently shown
};
