/* The screens: audits, one audit live, devices. */
import { call, download, query, session, APIError } from './api.js';
import { $, make } from './elements.js';
import { row, fill, header, pager, when, ago, percent, save, caption, tickets } from './dom.js';
import { bars } from './chart.js';
import { labels } from './labels.js';

function showError(node, error) { node.textContent = error ? (error.message || String(error)) : ''; }

// MARK: audits

const auditsTickets = tickets();

export async function audits(page) {
  const latest = auditsTickets();
  const params = {
    country: $('filter-country').value.trim().toUpperCase(), location: $('filter-location').value.trim(),
    from: $('filter-from').value, to: $('filter-to').value, page: page || 1, per_page: 50
  };
  showError($('audits-error'), null);
  let data;
  try {
    data = await call('GET', '/api/v1/audit/history' + query(params));
  } catch (e) {
    if (!latest()) return;
    if (e instanceof APIError && e.status === 422) {
      // The rows of the filter before are not the answer to this one: they go.
      showError($('audits-error'), e);
      fill($('audits-table').tBodies[0], [], 'No audits: correct the filter.', 10);
      pager($('audits-pager'), null);
      bars($('missing-chart'), [], 'bar-missing', 'No audits: correct the filter.');
      return;
    }
    throw e;
  }
  if (!latest()) return;
  const rows = data.audits.map(function (a) {
    const completion = make('span', null, percent(a.completion_percentage));
    const meter = make('meter');
    meter.min = 0; meter.max = 100; meter.value = a.completion_percentage || 0;
    meter.setAttribute('aria-hidden', 'true');
    completion.appendChild(meter);
    const tr = row([
      a.country, when(a.started_at), a.started_by, a.ended_at ? when(a.ended_at) : { text: 'running', cls: 'found' },
      { text: a.total_assets, cls: 'num' }, { text: a.scanned_count, cls: 'num' }, { text: a.missing_count, cls: 'num' },
      { text: a.unexpected_count, cls: 'num' }, completion, { text: a.scanned_count + '/' + a.total_assets, cls: 'num' }
    ], 'link');
    tr.cells[8].className = 'num';
    tr.tabIndex = 0;
    const open = function () { location.hash = '#/audit/' + encodeURIComponent(a.id); };
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', function (e) { if (e.key === 'Enter') open(); });
    return tr;
  });
  const chosen = [params.country && 'country ' + params.country, params.location && 'location "' + params.location + '"',
    params.from && 'from ' + params.from, params.to && 'to ' + params.to].filter(Boolean);
  caption($('audits-table'), 'Audits' + (chosen.length ? ' · ' + chosen.join(', ') : '') + ' · printed ' + when(new Date().toISOString()));
  fill($('audits-table').tBodies[0], rows, 'No audits match.', 10);
  pager($('audits-pager'), data.pagination, audits);
  const ended = data.audits.filter(function (a) { return a.ended_at; }).reverse();
  bars($('missing-chart'), ended.map(function (a) {
    return { label: a.country + ' ' + when(a.ended_at), short: a.country + ' ' + (a.ended_at || '').slice(5, 10), value: a.missing_count };
  }), 'bar-missing', 'No ended audits on this page.');
}

// MARK: one audit

/** The address names no audit the user can open. */
export class NoSuchAudit extends Error {
  constructor(id) {
    const shown = id.length > 40 ? id.slice(0, 40) + '…' : id;
    super('There is no audit "' + shown + '" that you may open. Choose one from the list below.');
  }
}

// brokenDownAt: when the breakdown was last asked for; -Infinity until then, so the first is at
// once (performance.now() counts from the page's load, so 0 would wait out its first 5 s).
// listedAs: the numbers the list on screen was read at (an ended audit's list is read again when
// a late scan moves them). follow: bumped whenever the page stops following an audit, so a
// poll still in flight for the audit left behind schedules no next one.
const state = {
  id: null, list: 'missing', page: 1, timer: null, audit: null, counted: null, brokenDownAt: -Infinity,
  listedAs: null, stationsAt: -Infinity, follow: 0, freshAt: null
};

// A running audit is followed once a second. An ended one changes only when a late scan arrives
// (a scan made before the end, sent by a station that was offline), so it is looked at again
// every 10 seconds.
const FAST_MS = 1000;
const SLOW_MS = 10000;
const STATIONS_MS = 5000;

const listNames = { missing: 'Missing assets', scanned: 'Found assets', unexpected: 'Unexpected scans', misplaced: 'Misplaced assets', trail: 'Scan trail' };

const columns = {
  missing: ['Tag', 'Serial', 'Name', 'Model', 'Status', 'Location'],
  scanned: ['Tag', 'Name', 'Location', 'Found at', 'First scan', 'By', 'Station'],
  unexpected: ['Identifier', 'Reason', 'Name', 'Country', 'Location', 'First scan', 'Scans'],
  misplaced: ['Tag', 'Name', 'Registered at', 'Found at', 'First scan', 'By'],
  trail: ['Scanned', 'Identifier', 'Outcome', 'By', 'Station', 'Source', 'Photo', '']
};

/** Whether the signed-in user may act on (end, void scans of) an audit of `country`: as the
 * API's requireAuditing says, anyone but CLIENT users, in the countries they may audit (every
 * country for ADMIN, or when none are listed). */
function mayAudit(country) {
  const s = session();
  const u = s && s.user;
  if (!u || u.user_type === 'CLIENT') return false;
  if (u.user_type === 'ADMIN') return true;
  const countries = u.countries || [];
  return countries.length === 0 || countries.indexOf(country) >= 0;
}

/** Whether the user may reconcile an audit of `country`: as the API's reconcile route says, the
 * asset-editing permission (ADMIN, or can_edit_assets) and the country's assets. Anyone else
 * is not shown the panel. */
function mayReconcile(country) {
  const s = session();
  const u = s && s.user;
  if (!u || !(u.user_type === 'ADMIN' || u.can_edit_assets === true)) return false;
  const countries = u.user_type === 'ADMIN' ? [] : (u.countries || []);
  return countries.length === 0 || countries.indexOf(country) >= 0;
}

function running() { return !!(state.audit && state.audit.is_active); }

export function stopAudit() {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  state.follow += 1;
}

/** Polls the audit's numbers again after FAST_MS while it runs, SLOW_MS once it has ended. */
function follow() {
  const round = state.follow;
  state.timer = setTimeout(function () {
    if (round !== state.follow) return;
    numbers().then(refreshed, refreshFailed).then(function () { if (round === state.follow) follow(); });
  }, running() ? FAST_MS : SLOW_MS);
}

/* A refresh that fails is said plainly, with the time of the numbers on screen, and the page
 * keeps trying; the next one that succeeds clears it. A 401 has sent the page to the login. */
function refreshed() {
  state.freshAt = new Date();
  $('audit-refresh').hidden = true;
  $('audit-refresh').textContent = '';
  $('audit-view').classList.remove('stale');
}

function refreshFailed(e) {
  if (e instanceof APIError && e.status === 401) return;
  const at = state.freshAt ? state.freshAt.toLocaleTimeString() : 'the page opened';
  $('audit-refresh').textContent = 'Not refreshed: ' + (e.message || String(e)) + '. The numbers shown are from ' + at + '; trying again.';
  $('audit-refresh').hidden = false;
  $('audit-view').classList.add('stale');
}

export async function audit(id) {
  stopAudit();
  if (state.id !== id) { state.id = id; state.list = 'missing'; state.page = 1; $('list-query').value = ''; }
  state.audit = null;
  state.counted = null;
  state.listedAs = null;
  state.brokenDownAt = -Infinity;
  state.stationsAt = -Infinity;
  if ($('end-dialog').open) $('end-dialog').close();
  selectTab();
  try {
    await numbers();
  } catch (e) {
    // An id that names no audit (mistyped, cut, or of an audit the user may not see).
    if (e instanceof APIError && [400, 403, 404, 422].indexOf(e.status) >= 0) throw new NoSuchAudit(id);
    throw e;
  }
  refreshed();
  await list();
  state.listedAs = counts(state.audit);
  follow();
}

function counts(a) {
  return a ? [a.scanned_count, a.unexpected_count, a.total_assets, a.late_scan_count || 0].join('/') : null;
}

async function numbers() {
  const id = state.id;
  const data = await call('GET', '/api/v1/audit/' + encodeURIComponent(id));
  if (id !== state.id) return;
  const a = data.audit;
  const before = state.audit;
  state.audit = a;
  // Ended while the page was open: here, or elsewhere (another page, a station, the CLI).
  const endedNow = !!(before && before.id === a.id && before.is_active && !a.is_active);
  // The breakdown is read again when the numbers move, at most every 5 seconds.
  const counted = counts(a);
  const moved = counted !== state.counted;
  if (moved && performance.now() - state.brokenDownAt >= 5000) {
    state.counted = counted;
    state.brokenDownAt = performance.now();
    breakdown().catch(report);
  }
  // The stations are read every 5 seconds while the audit runs; once it has ended, with each
  // look at it (every 10 s), and at once when a late scan moves its numbers.
  if (endedNow || (moved && !a.is_active) || performance.now() - state.stationsAt >= (a.is_active ? STATIONS_MS : SLOW_MS)) {
    state.stationsAt = performance.now();
    // A server that keeps no stations (a station's own `office`, an older server) has no table.
    stations().catch(function () { $('audit-stations').hidden = true; });
  }
  $('audit-title').textContent = 'Audit of ' + a.country + (a.is_active ? ' (running)' : ' (ended)');
  $('audit-meta').textContent = 'Started ' + when(a.started_at) + ' by ' + a.started_by +
    (a.locations && a.locations.length ? ' · locations: ' + a.locations.join(', ') : '') + ' · id ' + a.id;
  const ended = $('audit-ended');
  ended.hidden = a.is_active;
  ended.textContent = a.is_active ? '' : 'Ended at ' + when(a.ended_at) + (a.ended_by ? ' by ' + a.ended_by : '');
  const late = a.late_scan_count || 0;
  $('audit-late').hidden = late === 0;
  $('audit-late').textContent = late === 0 ? '' : late + (late === 1 ? ' late scan' : ' late scans') + ' (made before the end, arrived after it; counted)';
  $('n-total').textContent = a.total_assets;
  $('n-found').textContent = a.scanned_count;
  $('n-missing').textContent = a.missing_count;
  $('n-unexpected').textContent = a.unexpected_count;
  $('n-completion').textContent = percent(a.completion_percentage);
  const end = $('end-audit');
  const canEnd = a.is_active && mayAudit(a.country);
  if (end.hidden === canEnd) {
    // The focus on a button that goes would be lost to the page's body: it moves to the title.
    if (!canEnd && document.activeElement === end) focusTitle();
    end.hidden = !canEnd;
  }
  // Reconciliation is for an ended audit only, and for those who may change its assets.
  const panel = $('reconcile');
  const hidePanel = a.is_active || !mayReconcile(a.country);
  if (panel.hidden !== hidePanel) {
    panel.hidden = hidePanel;
    $('reconcile-message').textContent = '';
    $('reconcile-table').hidden = true;
    pager($('reconcile-pager'), null);
    $('reconcile-apply').disabled = true;
  }
  if (endedNow) {
    // Nothing that needs a running audit stays open: the End and Void dialogs close.
    ['end-dialog', 'void-dialog'].forEach(function (d) { if ($(d).open) $(d).close(); });
  }
  // The list on screen loses its Void buttons when the audit ends, and an ended audit's list
  // follows a late scan's numbers.
  if (state.listedAs !== null && (endedNow || (!a.is_active && counted !== state.listedAs))) {
    state.listedAs = counted;
    list().catch(report);
  }
}

function focusTitle() {
  const title = $('audit-title');
  title.tabIndex = -1;
  title.focus();
}

/** The stations heard from on the audit: who last used each, when, and the scans it said were waiting. */
async function stations() {
  const id = state.id;
  const data = await call('GET', '/api/v1/audit/' + encodeURIComponent(id) + '/stations');
  if (id !== state.id) return;
  $('audit-stations').hidden = false;
  const now = Date.now();
  fill($('audit-stations').tBodies[0], (data.stations || []).map(function (s) {
    const seen = make('span', null, ago(s.last_seen_at, now));
    seen.title = when(s.last_seen_at);
    const waiting = s.waiting === null || s.waiting === undefined ? { text: '–', cls: 'num muted' }
      : { text: s.waiting, cls: s.waiting > 0 ? 'num waiting' : 'num' };
    return row([s.station, s.user, seen, waiting]);
  }), 'No station has reported on this audit.', 4);
}

// MARK: ending

/** Station names out of STATIONS_OUT's sentences ("dock-b joined this audit and last synced …"). */
function stationNames(sentences) {
  return sentences.map(function (t) {
    const at = t.indexOf(' joined this audit');
    return at > 0 ? t.slice(0, at) : null;
  });
}

function listed(names) {
  if (names.length <= 1) return names.join('');
  if (names.length > 3) return names.slice(0, 2).join(', ') + ' and ' + (names.length - 2) + ' more';
  return names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1];
}

function askEnd() {
  const a = state.audit;
  if (!a || !a.is_active) return;
  $('end-what').textContent = 'The audit of ' + a.country + ' stops taking new scans: ' + a.scanned_count + ' of ' + a.total_assets +
    ' expected assets were found; the ' + a.missing_count + ' not found count as missing.';
  $('end-out').hidden = true;
  $('end-stations').replaceChildren();
  $('end-force').hidden = true;
  $('end-confirm').hidden = false;
  showError($('end-error'), null);
  $('end-dialog').showModal();
  $('end-confirm').focus();
}

/** Ends the audit; `force` ends it although stations may still hold scans of it. */
async function endAudit(force) {
  const buttons = [$('end-confirm'), $('end-force')];
  if (buttons.some(function (b) { return b.disabled; })) return;
  buttons.forEach(function (b) { b.disabled = true; });
  showError($('end-error'), null);
  // Where the focus goes once the buttons can be pressed again (a disabled button loses it).
  let focus = null;
  try {
    await call('POST', '/api/v1/audit/end', force ? { audit_id: state.id, force: true } : { audit_id: state.id });
    $('end-dialog').close();
    await numbers();
    if (!running()) focusTitle();
  } catch (e) {
    if (e instanceof APIError && e.code === 'STATIONS_OUT' && !force) {
      // Who may still send scans, and a second button that names them. The focus goes to
      // "Keep it running": ending anyway is a choice made on purpose, never a stray Enter.
      const sentences = (e.data && e.data.stations) || [];
      $('end-stations').replaceChildren(...sentences.map(function (t) { return make('li', null, t); }));
      $('end-out').hidden = false;
      const names = stationNames(sentences);
      const known = names.length > 0 && names.every(function (n) { return n; });
      $('end-force').textContent = 'End anyway: ' + (known ? listed(names) : 'these stations') + ' may still send scans';
      $('end-confirm').hidden = true;
      $('end-force').hidden = false;
      focus = $('end-cancel');
    } else {
      showError($('end-error'), e);
      focus = force ? $('end-force') : $('end-confirm');
      numbers().catch(function () {});
    }
  } finally {
    buttons.forEach(function (b) { b.disabled = false; });
  }
  if (focus && $('end-dialog').open) focus.focus();
}

/** The per-hour chart and the per-location, per-station and per-user tables (computed by the server). */
async function breakdown() {
  const data = await call('GET', '/api/v1/audit/' + encodeURIComponent(state.id) + '/summary');
  bars($('hours-chart'), data.scans_per_hour.map(function (h) {
    return { label: when(h.hour), short: h.hour.slice(11, 16), value: h.scans };
  }), 'bar-scans', 'No scans yet.');
  fill($('by-location').tBodies[0], data.by_location.map(function (l) {
    return row([l.location === null ? { text: '(no location)', cls: 'muted' } : l.location, { text: l.expected, cls: 'num' },
      { text: l.found, cls: 'num' }, { text: l.missing, cls: 'num' }, { text: l.misplaced, cls: 'num' }]);
  }), 'No expected assets.', 5);
  [['by-station', data.by_station], ['by-user', data.by_user]].forEach(function (pair) {
    fill($(pair[0]).tBodies[0], pair[1].map(function (t) {
      return row([t.name, { text: t.scans, cls: 'num' }, { text: t.found, cls: 'num' }, { text: t.unexpected, cls: 'num' }]);
    }), 'No scans yet.', 4);
  });
  // The accessories the audit expects: apart from the assets' numbers. A server that does not
  // count accessories has no such call: the table then stays empty.
  let counted = { accessories: [] };
  try { counted = await call('GET', '/api/v1/audit/' + encodeURIComponent(state.id) + '/accessories'); } catch (e) { /* none */ }
  fill($('audit-accessories').tBodies[0], counted.accessories.map(function (a) {
    const diff = a.difference > 0 ? '+' + a.difference : String(a.difference);
    return row([a.tag, a.name, a.location === null || a.location === undefined ? { text: '(no location)', cls: 'muted' } : a.location,
      { text: a.expected, cls: 'num' }, { text: a.counted, cls: 'num' }, { text: diff, cls: 'num' + (a.difference !== 0 ? ' bad' : '') }]);
  }), 'No accessories in this audit.', 6);
}

function chosenActions() {
  return {
    move_misplaced: $('act-move').checked, mark_missing: $('act-missing').checked,
    register_unknown: $('act-register').checked, restore_found: $('act-restore').checked,
    set_quantities: $('act-quantities').checked
  };
}

/** The changes listed RECONCILE_PAGE at a time, with the pager under them. */
const RECONCILE_PAGE = 50;

function changesPage(changes, page, empty) {
  const last = Math.max(1, Math.ceil(changes.length / RECONCILE_PAGE));
  fill($('reconcile-table').tBodies[0], changes.slice((page - 1) * RECONCILE_PAGE, page * RECONCILE_PAGE).map(function (c) {
    return row([c.asset_tag, c.action.replace(/_/g, ' '), c.field, c.from, c.to]);
  }), empty, 5);
  pager($('reconcile-pager'), changes.length > RECONCILE_PAGE ? { page: page, last_page: last, total: changes.length } : null,
    function (p) { changesPage(changes, p, empty); });
}

async function reconcile(preview) {
  const body = Object.assign({ preview: preview }, chosenActions());
  $('reconcile-apply').disabled = true;
  try {
    const result = await call('POST', '/api/v1/audit/' + encodeURIComponent(state.id) + '/reconcile', body);
    $('reconcile-message').textContent = result.message + (result.truncated ? ' (the first ' + result.changes.length + ' are listed)' : '');
    changesPage(result.changes, 1, preview ? 'Nothing to change.' : 'Nothing was changed.');
    $('reconcile-table').hidden = false;
    $('reconcile-apply').disabled = !(preview && result.total > 0);
    if (!preview) await list();
  } catch (e) {
    $('reconcile-message').textContent = e.message || String(e);
  }
}

function selectTab() {
  document.querySelectorAll('.tabs button').forEach(function (b) { b.setAttribute('aria-selected', String(b.dataset.list === state.list)); });
}

export function bindAudit() {
  document.querySelectorAll('.tabs button').forEach(function (b) {
    b.addEventListener('click', function () { state.list = b.dataset.list; state.page = 1; selectTab(); list().catch(report); });
  });
  $('list-search').addEventListener('submit', function (e) { e.preventDefault(); state.page = 1; list().catch(report); });
  $('download-csv').addEventListener('click', function () { report_('csv'); });
  $('download-json').addEventListener('click', function () { report_('json'); });
  $('download-pdf').addEventListener('click', function () { report_('pdf'); });
  $('print-labels').addEventListener('click', function () { labels({ audit_id: state.id, unknown: true }, 'Labels for the unknown tags of this audit'); });
  $('void-cancel').addEventListener('click', function () { $('void-dialog').close(); });
  $('end-audit').addEventListener('click', askEnd);
  $('end-cancel').addEventListener('click', function () { $('end-dialog').close(); });
  $('end-form').addEventListener('submit', function (e) { e.preventDefault(); endAudit(false); });
  $('end-force').addEventListener('click', function () { endAudit(true); });
  // A held Enter (or Space) repeats: the press that opened the dialog must not also answer it.
  $('end-dialog').addEventListener('keydown', function (e) {
    if (e.repeat && (e.key === 'Enter' || e.key === ' ')) e.preventDefault();
  });
  $('reconcile-preview').addEventListener('click', function () { reconcile(true); });
  $('reconcile-apply').addEventListener('click', function () { reconcile(false); });
  ['act-move', 'act-missing', 'act-register', 'act-restore', 'act-quantities'].forEach(function (id) {
    // A changed choice needs a new preview before it can be applied.
    $(id).addEventListener('change', function () { $('reconcile-apply').disabled = true; });
  });
}

function report(error) { showError($('audit-error'), error); }

async function report_(format) {
  const button = $('download-' + format);
  button.disabled = true;
  try {
    const file = await download('/api/v1/audit/' + encodeURIComponent(state.id) + '/report?format=' + format);
    save(file.blob, file.name);
  } catch (e) { report(e); } finally { button.disabled = false; }
}

const listTickets = tickets();

async function list() {
  const latest = listTickets();
  showError($('audit-error'), null);
  const table = $('list-table');
  header(table.tHead, columns[state.list]);
  const search = $('list-query').value.trim();
  const go = function (page) { state.page = page; list().catch(report); };
  const a = state.audit;
  caption(table, listNames[state.list] + (a ? ' · audit of ' + a.country + ' started ' + when(a.started_at) + ' (id ' + a.id + ')' : '') +
    (search ? ' · search "' + search + '"' : '') + ' · printed ' + when(new Date().toISOString()));
  if (state.list === 'trail') {
    const data = await call('GET', '/api/v1/audit/' + encodeURIComponent(state.id) + '/scans' + query({ search: search, page: state.page, per_page: 50 }));
    if (!latest()) return;
    fill(table.tBodies[0], data.scans.map(trailRow), search ? 'No scan matches "' + search + '".' : 'No scans yet.', 8);
    pager($('list-pager'), data.pagination, go);
    return;
  }
  const data = await call('GET', '/api/v1/audit/details/' + state.list + query({ audit_id: state.id, search: search, page: state.page, per_page: 50 }));
  if (!latest()) return;
  fill(table.tBodies[0], data.assets.map(entryRow), search ? 'Nothing here matches "' + search + '".' : 'Nothing here.', columns[state.list].length);
  pager($('list-pager'), data.pagination, go);
}

function entryRow(a) {
  switch (state.list) {
    case 'missing': return row([a.asset_tag, a.serial_num, a.name, a.model, a.status, a.location]);
    case 'scanned': return row([a.asset_tag, a.name, a.location, a.misplaced ? { text: a.found_location, cls: 'tag-misplaced' } : a.found_location, when(a.first_scanned_at), a.user, a.station]);
    case 'unexpected': return row([a.identifier, a.reason, a.name, a.country, a.location, when(a.first_scanned_at), a.scan_count]);
    default: return row([a.asset_tag, a.name, a.location, { text: a.found_location, cls: 'tag-misplaced' }, when(a.first_scanned_at), a.user]);
  }
}

function trailRow(s) {
  const photo = make('span');
  if (s.has_photo) {
    const show = make('button', 'quiet', 'Show');
    show.type = 'button';
    show.addEventListener('click', async function () {
      try {
        const file = await download('/api/v1/audit/' + encodeURIComponent(state.id) + '/scans/' + encodeURIComponent(s.scan_id) + '/photo');
        const img = make('img', 'photo');
        img.alt = 'Camera photo of the scan of ' + s.identifier;
        img.src = URL.createObjectURL(file.blob);
        photo.replaceChildren(img);
      } catch (e) { report(e); }
    });
    photo.appendChild(show);
  }
  const action = make('span');
  if (s.voided) {
    action.textContent = 'voided by ' + s.voided.user + (s.voided.reason ? ': ' + s.voided.reason : '');
  } else if (running() && mayAudit(state.audit.country)) {
    const undo = make('button', 'quiet', 'Void');
    undo.type = 'button';
    undo.addEventListener('click', function () { askVoid(s); });
    action.appendChild(undo);
  }
  // A late scan: made before the audit's end, arrived after it (recorded_at), and counted.
  const outcome = make('span', 'outcome', s.status.replace('_', ' '));
  if (s.late) outcome.appendChild(make('span', 'late', 'late: arrived ' + when(s.recorded_at)));
  return row([when(s.scanned_at), s.identifier, outcome, s.user, s.station, s.source, photo, action], s.voided ? 'voided' : null);
}

function askVoid(scan) {
  const dialog = $('void-dialog');
  $('void-what').textContent = scan.identifier + ', scanned by ' + scan.user + ' at ' + scan.station + ' (' + when(scan.scanned_at) + ')';
  $('void-reason').value = '';
  showError($('void-error'), null);
  $('void-form').onsubmit = async function (e) {
    e.preventDefault();
    const reason = $('void-reason').value.trim();
    if (!reason) { $('void-error').textContent = 'Say why the scan is voided.'; return; }
    try {
      await call('POST', '/api/v1/audit/scans/' + encodeURIComponent(scan.scan_id) + '/void', { reason: reason, audit_id: state.id });
      dialog.close();
      await numbers();
      await list();
    } catch (err) { showError($('void-error'), err); }
  };
  dialog.showModal();
  $('void-reason').focus();
}

// MARK: devices

export async function devices() {
  const data = await call('GET', '/api/v1/devices');
  const list = Array.isArray(data) ? data : (data.devices || []);
  const table = $('devices-table');
  header(table.tHead, ['Device', 'User', 'Last seen', 'Scans', 'Waiting scans']);
  table.tHead.rows[0].cells[3].className = 'num';
  table.tHead.rows[0].cells[4].className = 'num';
  const now = Date.now();
  fill(table.tBodies[0], list.map(function (d) {
    const last = d.last_seen_at || d.last_active_at;
    const seen = make('span', null, last ? when(last) + ' (' + ago(last, now) + ')' : '');
    // Waiting: the scans the device last said were waiting to be sent, on any audit; none
    // when it never reported.
    const waiting = d.waiting === null || d.waiting === undefined ? { text: '–', cls: 'num muted' }
      : { text: d.waiting, cls: d.waiting > 0 ? 'num waiting' : 'num' };
    return row([d.device_name || d.name, d.user || d.user_name || '', seen, { text: d.scans === undefined ? '' : d.scans, cls: 'num' }, waiting]);
  }), 'No devices yet.', 5);
}

export { APIError };
