/* Administration (ADMIN only): the users of the API, to create, disable or enable, and to give
 * a new password. The server refuses every one of these calls to anyone else. */
import { call, session } from './api.js';
import { $, make } from './elements.js';
import { row, fill, header, when, messageLine, actionButton } from './dom.js';
import { edit } from './form.js';

const password = { name: 'password', label: 'Password (8 characters or more)', type: 'password', required: true, max: 72 };
const fields = [
  { name: 'email', label: 'Email', type: 'email', required: true, max: 254 },
  { name: 'name', label: 'Name', required: true, max: 255 },
  password,
  { name: 'user_type', label: 'Type', type: 'select', choices: ['STAFF', 'CLIENT', 'ADMIN'], initial: 'STAFF' },
  { name: 'countries', label: 'Countries it may audit (SG, MY; none: every country)', list: true, keep: true, max: 200 },
  { name: 'can_edit_assets', label: 'May create, edit and archive assets and accessories', type: 'check', wide: true }
];

const say = messageLine('users-message');

function button(label, cls, act) { return actionButton(label, cls, act, say); }

export async function show() {
  const data = await call('GET', '/api/v1/users');
  const me = session().user;
  const table = $('users-table');
  header(table.tHead, ['Email', 'Name', 'Type', 'Countries', 'Edits assets', 'State', '']);
  fill(table.tBodies[0], data.users.map(function (u) {
    const cell = make('span', 'row-actions');
    if (u.id !== me.id) {
      cell.appendChild(u.disabled_at
        ? button('Enable', 'quiet', async function () { await call('POST', '/api/v1/users/' + u.id + '/enable'); say(u.email + ' may log in again'); await show(); })
        : button('Disable', 'quiet danger', async function () { await call('POST', '/api/v1/users/' + u.id + '/disable'); say(u.email + ' is disabled; its logins no longer work'); await show(); }));
    }
    cell.appendChild(button('Reset password', 'quiet', async function () {
      edit('New password for ' + u.email, [password], null, false, 'Set the password', async function (body) {
        await call('POST', '/api/v1/users/' + u.id + '/password', body);
        say('The password of ' + u.email + ' is changed; its earlier logins no longer work');
      });
    }));
    return row([u.email, u.name, u.user_type, u.countries.length ? u.countries.join(', ') : 'every country', u.can_edit_assets ? 'yes' : 'no',
      u.disabled_at ? 'disabled ' + when(u.disabled_at) : 'active', cell], u.disabled_at ? 'muted' : null);
  }), 'No users.', 7);
}

export function bind() {
  $('users-new').addEventListener('click', function () {
    edit('New user', fields, null, false, 'Create', async function (body) {
      const made = await call('POST', '/api/v1/users', body);
      say('Created ' + made.email + ' (' + made.user_type + ')');
      await show();
    });
  });
}
