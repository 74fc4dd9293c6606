/* The screens: audits, one audit live, devices. */
import { call, download, query, APIError } from './api.js';
import { $, make, row, fill, header, pager, when, percent, save } from './dom.js';
import { bars } from './chart.js';
import { labels } from './labels.js';

function showError(node, error) { node.textContent = error ? (error.message || String(error)) : ''; }

// MARK: audits

export async function audits(page) {
  const params = {
    country: $('filter-country').value.trim().toUpperCase(), location: $('filter-location').value.trim(),
    from: $('filter-from').value, to: $('filter-to').value, page: page || 1, per_page: 50
  };
  showError($('audits-error'), null);
  let data;
  try {
    data = await call('GET', '/api/v1/audit/history' + query(params));
  } catch (e) {
    if (e instanceof APIError && e.status === 422) { showError($('audits-error'), e); return; }
    throw e;
  }
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
  fill($('audits-table').tBodies[0], rows, 'No audits match.', 10);
  pager($('audits-pager'), data.pagination, audits);
  const ended = data.audits.filter(function (a) { return a.ended_at; }).reverse();
  bars($('missing-chart'), ended.map(function (a) {
    return { label: a.country + ' ' + when(a.ended_at), short: a.country + ' ' + (a.ended_at || '').slice(5, 10), value: a.missing_count };
  }), 'bar-missing', 'No ended audits on this page.');
}

// MARK: one audit

// brokenDownAt: when the breakdown was last asked for; -Infinity until then, so the first is at
// once (performance.now() counts from the page's load, so 0 would wait out its first 5 s).
const state = { id: null, list: 'missing', page: 1, timer: null, audit: null, counted: null, brokenDownAt: -Infinity };

const columns = {
  missing: ['Tag', 'Serial', 'Name', 'Model', 'Status', 'Location'],
  scanned: ['Tag', 'Name', 'Location', 'Found at', 'First scan', 'By', 'Station'],
  unexpected: ['Identifier', 'Reason', 'Name', 'Country', 'Location', 'First scan', 'Scans'],
  misplaced: ['Tag', 'Name', 'Registered at', 'Found at', 'First scan', 'By'],
  trail: ['Scanned', 'Identifier', 'Outcome', 'By', 'Station', 'Source', 'Photo', '']
};

export function stopAudit() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
}

export async function audit(id) {
  stopAudit();
  if (state.id !== id) { state.id = id; state.list = 'missing'; state.page = 1; $('list-query').value = ''; }
  state.counted = null;
  state.brokenDownAt = -Infinity;
  selectTab();
  await numbers();
  await list();
  // A running audit is followed live, once a second at most.
  if (state.audit && state.audit.is_active) state.timer = setInterval(function () { numbers().catch(function () {}); }, 1000);
}

async function numbers() {
  const data = await call('GET', '/api/v1/audit/' + encodeURIComponent(state.id));
  const a = data.audit;
  state.audit = a;
  // The breakdown is read again when the numbers move, at most every 5 seconds.
  const counted = a.scanned_count + '/' + a.unexpected_count + '/' + a.total_assets;
  if (counted !== state.counted && performance.now() - state.brokenDownAt >= 5000) {
    state.counted = counted;
    state.brokenDownAt = performance.now();
    breakdown().catch(report);
  }
  $('audit-title').textContent = 'Audit of ' + a.country + (a.is_active ? ' (running)' : '');
  $('audit-meta').textContent = 'Started ' + when(a.started_at) + ' by ' + a.started_by + (a.ended_at ? ', ended ' + when(a.ended_at) : '') +
    (a.locations && a.locations.length ? ' · locations: ' + a.locations.join(', ') : '') + ' · id ' + a.id;
  $('n-total').textContent = a.total_assets;
  $('n-found').textContent = a.scanned_count;
  $('n-missing').textContent = a.missing_count;
  $('n-unexpected').textContent = a.unexpected_count;
  $('n-completion').textContent = percent(a.completion_percentage);
  // Reconciliation is for an ended audit only.
  const panel = $('reconcile');
  if (panel.hidden !== a.is_active) {
    panel.hidden = a.is_active;
    $('reconcile-message').textContent = '';
    $('reconcile-table').hidden = true;
    $('reconcile-apply').disabled = true;
  }
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
}

function chosenActions() {
  return {
    move_misplaced: $('act-move').checked, mark_missing: $('act-missing').checked,
    register_unknown: $('act-register').checked, restore_found: $('act-restore').checked
  };
}

async function reconcile(preview) {
  const body = Object.assign({ preview: preview }, chosenActions());
  $('reconcile-apply').disabled = true;
  try {
    const result = await call('POST', '/api/v1/audit/' + encodeURIComponent(state.id) + '/reconcile', body);
    $('reconcile-message').textContent = result.message + (result.truncated ? ' (the first ' + result.changes.length + ' are listed)' : '');
    fill($('reconcile-table').tBodies[0], result.changes.map(function (c) {
      return row([c.asset_tag, c.action.replace(/_/g, ' '), c.field, c.from, c.to]);
    }), preview ? 'Nothing to change.' : 'Nothing was changed.', 5);
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
  $('reconcile-preview').addEventListener('click', function () { reconcile(true); });
  $('reconcile-apply').addEventListener('click', function () { reconcile(false); });
  ['act-move', 'act-missing', 'act-register', 'act-restore'].forEach(function (id) {
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

async function list() {
  showError($('audit-error'), null);
  const table = $('list-table');
  header(table.tHead, columns[state.list]);
  const search = $('list-query').value.trim();
  const go = function (page) { state.page = page; list().catch(report); };
  if (state.list === 'trail') {
    const data = await call('GET', '/api/v1/audit/' + encodeURIComponent(state.id) + '/scans' + query({ search: search, page: state.page, per_page: 50 }));
    fill(table.tBodies[0], data.scans.map(trailRow), 'No scans yet.', 8);
    pager($('list-pager'), data.pagination, go);
    return;
  }
  const data = await call('GET', '/api/v1/audit/details/' + state.list + query({ audit_id: state.id, search: search, page: state.page, per_page: 50 }));
  fill(table.tBodies[0], data.assets.map(entryRow), 'Nothing here.', columns[state.list].length);
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
  } else if (state.audit && state.audit.is_active) {
    const undo = make('button', 'quiet', 'Void');
    undo.type = 'button';
    undo.addEventListener('click', function () { askVoid(s); });
    action.appendChild(undo);
  }
  return row([when(s.scanned_at), s.identifier, s.status.replace('_', ' '), s.user, s.station, s.source, photo, action], s.voided ? 'voided' : null);
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
  header(table.tHead, ['Device', 'User', 'Last seen', 'Scans']);
  fill(table.tBodies[0], list.map(function (d) {
    return row([d.device_name || d.name, d.user || d.user_name || '', when(d.last_seen_at || d.last_seen), d.scans === undefined ? '' : d.scans]);
  }), 'No devices yet.', 4);
}

export { APIError };
