/* The screens: audits, one audit live, assets, devices. */
import { call, download, query, APIError } from './api.js';
import { $, make, row, fill, header, pager, when, percent, save } from './dom.js';
import { bars } from './chart.js';

function showError(node, error) { node.textContent = error ? (error.message || String(error)) : ''; }

// MARK: audits

export async function audits(page) {
  const country = $('filter-country').value.trim().toUpperCase();
  const data = await call('GET', '/api/v1/audit/history' + query({ country: country, page: page || 1, per_page: 50 }));
  const rows = data.audits.map(function (a) {
    const tr = row([
      a.country, when(a.started_at), a.started_by, a.ended_at ? when(a.ended_at) : { text: 'running', cls: 'found' },
      { text: a.total_assets, cls: 'num' }, { text: a.scanned_count, cls: 'num' }, { text: a.missing_count, cls: 'num' },
      { text: a.unexpected_count, cls: 'num' }, { text: percent(a.completion_percentage), cls: 'num' }
    ], 'link');
    tr.tabIndex = 0;
    const open = function () { location.hash = '#/audit/' + encodeURIComponent(a.id); };
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', function (e) { if (e.key === 'Enter') open(); });
    return tr;
  });
  fill($('audits-table').tBodies[0], rows, 'No audits yet.', 9);
  pager($('audits-pager'), data.pagination, audits);
  const ended = data.audits.filter(function (a) { return a.ended_at; }).reverse();
  bars($('missing-chart'), ended.map(function (a) {
    return { label: a.country + ' ' + when(a.ended_at), short: a.country + ' ' + (a.ended_at || '').slice(5, 10), value: a.missing_count };
  }), 'bar-missing', 'No ended audits on this page.');
}

// MARK: one audit

const state = { id: null, list: 'missing', page: 1, timer: null, audit: null };

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
  try {
    const file = await download('/api/v1/audit/' + encodeURIComponent(state.id) + '/report?format=' + format);
    save(file.blob, file.name);
  } catch (e) { report(e); }
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

// MARK: assets and devices

export async function assets(page) {
  const search = $('assets-query').value.trim();
  const data = await call('GET', '/api/v2/assets' + query({ search: search, page: page || 1, per_page: 50 }));
  fill($('assets-table').tBodies[0], data.assets.map(function (a) {
    return row([a.asset_tag, a.serial_num, a.name, a.model, a.status, a.location, a.country]);
  }), 'No assets match.', 7);
  pager($('assets-pager'), data.pagination, assets);
}

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
