/* The inventory: assets, accessories and customers, to list, search, create, edit, and archive
 * (assets) or delete (accessories, customers); accessories are checked out to customers and in. */
import { call, query, session } from './api.js';
import { $, make } from './elements.js';
import { row, fill, header, pager, caption, when, tickets, messageLine } from './dom.js';
import { edit } from './form.js';
import { labels } from './labels.js';

const STATUSES = ['IN_STOCK', 'DEPLOYED', 'READY_TO_DEPLOY', 'REPAIR', 'ARCHIVED', 'DISPOSED', 'MISSING'];

function text(name, label, more) { return Object.assign({ name: name, label: label, max: 255 }, more || {}); }
function area(name, label) { return { name: name, label: label, type: 'area', max: 2000, wide: true }; }
function check(name, label) { return { name: name, label: label, type: 'check' }; }
const country = text('country', 'Country (ISO code, such as SG)', { max: 2 });

/** When an ended audit last found the asset, or "never". */
function lastAudited(iso) { return iso ? when(iso) : 'never'; }

function mayEditAssets(u) { return u.user_type === 'ADMIN' || u.can_edit_assets === true; }

export const kinds = {
  assets: {
    title: 'Assets', noun: 'Asset', path: '/api/v2/assets', key: 'assets', statuses: true, may: mayEditAssets,
    columns: [['Tag', 'asset_tag'], ['Serial', 'serial_num'], ['Name', 'name'], ['Model', 'model'], ['Status', 'status'],
      ['Location', 'location'], ['Country', 'country'], ['Customer', 'customer'], ['Last audited', 'last_audited_at', '', lastAudited]],
    describe: function (a) { return a.asset_tag + ' (' + a.name + ')'; },
    fields: [
      text('asset_tag', 'Tag', { required: true }), text('serial_num', 'Serial number'), text('name', 'Name', { required: true, wide: true }),
      text('model', 'Model'), { name: 'status', label: 'Status', type: 'select', choices: STATUSES, initial: 'IN_STOCK' },
      { name: 'condition', label: 'Condition', type: 'select', choices: ['', 'NEW', 'GOOD', 'FAIR', 'POOR'] },
      text('manufacturer', 'Manufacturer'), text('asset_type', 'Type'), Object.assign({ required: true }, country),
      text('location', 'Location'), text('company', 'Company'), text('cpu_type', 'CPU'), text('memory', 'Memory'),
      text('harddrive', 'Drive'), area('notes', 'Notes'), area('tech_notes', 'Technical notes'),
      check('is_erased', 'Erased'), check('has_keyboard', 'Has a keyboard'), check('has_charger', 'Has a charger')
    ],
    remove: { label: 'Archive', confirm: 'Archive it?', query: '?mode=archive' }
  },
  accessories: {
    title: 'Accessories', noun: 'Accessory', path: '/api/v2/accessories', key: 'accessories', may: mayEditAssets, movements: true,
    columns: [['Name', 'name'], ['Category', 'category'], ['Manufacturer', 'manufacturer'], ['Model', 'model_no'],
      ['Total', 'total_quantity', 'num'], ['Available', 'available_quantity', 'num'], ['Country', 'country'], ['Tag', 'tag'], ['Location', 'location']],
    describe: function (a) { return a.name + ' (' + a.category + ')'; },
    fields: [
      text('name', 'Name', { required: true, wide: true }), text('category', 'Category', { required: true }),
      text('tag', 'Tag (an audit counts it by scans of this)', { max: 128 }), text('location', 'Location'),
      text('manufacturer', 'Manufacturer'), text('model_no', 'Model number'),
      { name: 'total_quantity', label: 'Total quantity', type: 'number', initial: 0 }, country, area('notes', 'Notes')
    ],
    remove: { label: 'Delete', confirm: 'Delete it?', query: '' }
  },
  customers: {
    title: 'Customers', noun: 'Customer', path: '/api/v2/customers', key: 'customers',
    may: function (u) { return u.user_type !== 'CLIENT'; },
    columns: [['Name', 'name'], ['Contact number', 'contact_number'], ['Email', 'email'], ['Address', 'address'], ['Country', 'country']],
    describe: function (c) { return c.name; },
    fields: [
      text('name', 'Name', { required: true, wide: true }), text('contact_number', 'Contact number', { required: true }),
      { name: 'email', label: 'Email', type: 'email', max: 254 }, Object.assign({ required: true }, country),
      Object.assign(area('address', 'Address'), { required: true })
    ],
    remove: { label: 'Delete', confirm: 'Delete it?', query: '' }
  }
};

const state = { kind: 'assets', page: 1, countries: [] };

const say = messageLine('records-message');

/** Shows the inventory screen of `name` (assets, accessories, customers). */
export async function show(name) {
  if (state.kind !== name) {
    state.kind = name;
    state.page = 1;
    $('records-query').value = '';
    $('records-status').value = '';
    $('records-not-audited').value = '';
    say('');
  }
  const kind = kinds[name];
  $('records-title').textContent = kind.title;
  $('records-status-filter').hidden = !kind.statuses;
  $('records-audit-filter').hidden = !kind.statuses;
  $('records-new').textContent = 'New ' + kind.noun.toLowerCase();
  $('records-new').hidden = !kind.may(session().user);
  $('records-labels').hidden = name !== 'assets';
  await list(state.page);
}

const listTickets = tickets();

export async function list(page) {
  const latest = listTickets();
  state.page = page || 1;
  const kind = kinds[state.kind];
  const params = { search: $('records-query').value.trim(), page: state.page, per_page: 50 };
  if (kind.statuses) params.status = $('records-status').value;
  // Assets no ended audit has found for that many days, least recently found first.
  const days = kind.statuses ? $('records-not-audited').value.trim() : '';
  if (days !== '') params.not_audited_since = days + 'd';
  const data = await call('GET', kind.path + query(params));
  if (!latest()) return;
  const items = data[kind.key];
  state.countries = kind === kinds.assets ? items.map(function (a) { return a.country; }) : [];
  const editable = kind.may(session().user);
  const table = $('records-table');
  caption(table, kind.title + (params.search ? ' · search "' + params.search + '"' : '') + (params.status ? ' · status ' + params.status : '') +
    (days !== '' ? ' · not audited for ' + days + ' days' : '') +
    ' · page ' + state.page + ' · printed ' + when(new Date().toISOString()));
  header(table.tHead, kind.columns.map(function (c) { return c[0]; }).concat(editable ? [''] : []));
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) { if (kind.columns[i] && kind.columns[i][2]) th.className = kind.columns[i][2]; });
  fill(table.tBodies[0], items.map(function (item) {
    const cells = kind.columns.map(function (c) {
      const value = c[3] ? c[3](item[c[1]]) : item[c[1]];
      return c[2] ? { text: value, cls: c[2] } : value;
    });
    if (editable) cells.push(actions(kind, item));
    return row(cells);
  }), 'Nothing matches.', kind.columns.length + 1);
  pager($('records-pager'), data.pagination, function (p) { list(p).catch(function (e) { say(e.message, true); }); });
}

function button(label, cls, act) {
  const b = make('button', cls, label);
  b.type = 'button';
  b.addEventListener('click', act);
  return b;
}

function actions(kind, item) {
  const cell = make('span', 'row-actions');
  const what = kind.describe(item);
  cell.appendChild(button('Edit', 'quiet', function () {
    edit('Edit ' + kind.noun.toLowerCase() + ' ' + what, kind.fields, item, true, 'Save', async function (body) {
      await call('PUT', kind.path + '/' + item.id, body);
      say(kind.noun + ' ' + what + ' saved');
      await list(state.page);
    });
  }));
  if (kind.movements) {
    cell.appendChild(button('Check out', 'quiet', function () { move(kind, item, 'checkout').catch(function (e) { say(e.message, true); }); }));
    cell.appendChild(button('Check in', 'quiet', function () { move(kind, item, 'checkin').catch(function (e) { say(e.message, true); }); }));
  }
  // Archiving or deleting takes a second press of the same button, which says what it will do.
  const remove = button(kind.remove.label, 'quiet danger', async function () {
    if (remove.dataset.armed !== 'yes') {
      remove.dataset.armed = 'yes';
      remove.textContent = kind.remove.confirm;
      return;
    }
    remove.disabled = true;
    try {
      const result = await call('DELETE', kind.path + '/' + item.id + kind.remove.query);
      say(kind.noun + ' ' + what + ' ' + (result && result.asset ? 'archived' : 'deleted'));
      await list(state.page);
    } catch (e) {
      say(e.message, true);
      remove.disabled = false;
    }
  });
  remove.addEventListener('blur', function () { remove.dataset.armed = ''; remove.textContent = kind.remove.label; });
  cell.appendChild(remove);
  return cell;
}

/** Checks an accessory out to a customer, or in from one. */
async function move(kind, item, direction) {
  const customers = await call('GET', '/api/v2/customers' + query({ per_page: 100 }));
  const out = direction === 'checkout';
  const fields = [
    { name: 'customer_id', label: 'Customer', type: 'select', numeric: true, required: true, wide: true,
      choices: [{ value: '', label: '(choose a customer)' }].concat(customers.customers.map(function (c) { return { value: c.id, label: c.name + ' (' + c.country + ')' }; })) },
    { name: 'quantity', label: 'Quantity', type: 'number', min: 1, initial: 1 }
  ].concat(out ? [] : [text('condition', 'Condition')]).concat([area('notes', 'Notes')]);
  const what = kind.describe(item);
  edit((out ? 'Check out ' : 'Check in ') + what + ' (' + item.available_quantity + ' of ' + item.total_quantity + ' available)',
    fields, null, false, out ? 'Check out' : 'Check in', async function (body) {
      await call('POST', kind.path + '/' + item.id + '/' + direction, body);
      say((out ? 'Checked out ' : 'Checked in ') + (body.quantity || 1) + ' × ' + what);
      await list(state.page);
    });
}

export function bind() {
  const statuses = $('records-status');
  ['', ...STATUSES].forEach(function (s) { const o = make('option', null, s === '' ? 'any' : s); o.value = s; statuses.appendChild(o); });
  $('records-search').addEventListener('submit', function (e) { e.preventDefault(); list(1).catch(function (err) { say(err.message, true); }); });
  $('records-new').addEventListener('click', function () {
    const kind = kinds[state.kind];
    edit('New ' + kind.noun.toLowerCase(), kind.fields, null, false, 'Create', async function (body) {
      const made = await call('POST', kind.path, body);
      say(kind.noun + ' ' + kind.describe(made) + ' created');
      await list(1);
    });
  });
  $('record-cancel').addEventListener('click', function () { $('record-dialog').close(); });
  // Labels of a country (or one of its locations), or of the tags typed or scanned in. The
  // form starts with the country of the assets listed (when they are all of one) and no tags:
  // tags would win over the country, and the page on screen is only 50 of them.
  $('records-labels').addEventListener('click', function () {
    const countries = state.countries.filter(function (c, i, all) { return c && all.indexOf(c) === i; });
    labels({}, 'Print labels', [
      text('country', 'Country (ISO code): every asset of it', { max: 2 }), text('location', 'Location (with the country)'),
      { name: 'tags', label: 'Or these tags only, in place of the country (one a line, or separated by commas)', type: 'area', list: true, wide: true }
    ], { country: countries.length === 1 ? countries[0] : '' });
  });
}
