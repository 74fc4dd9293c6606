/* Cycle counts: the "Due" screen lists every plan the user may see, overdue first, with its next
 * due date and a Start button for whoever may start its audit; plans are added and removed here
 * by whoever may start audits of their country (the API refuses anyone else too). */
import { call } from './api.js';
import { $, make } from './elements.js';
import { row, fill, header, when, messageLine, actionButton } from './dom.js';
import { edit } from './form.js';

const fields = [
  { name: 'country', label: 'Country (such as SG)', required: true, max: 2 },
  { name: 'location', label: 'Location (none: the whole country)', max: 200 },
  { name: 'every_days', label: 'Every (days)', type: 'number', required: true, min: 1 },
  { name: 'assignee', label: 'Assignee (email)', type: 'email', max: 254 }
];

const words = { overdue: 'Overdue', due: 'Due', ok: 'OK' };

const say = messageLine('due-message');

function button(label, cls, act) { return actionButton(label, cls, act, say); }

/** Starts the plan's audit (its country, narrowed to its location) and opens it. */
async function start(plan) {
  const body = { country: plan.country };
  if (plan.location) body.locations = [plan.location];
  const data = await call('POST', '/api/v1/audit/start', body);
  location.hash = '#/audit/' + encodeURIComponent(data.audit.id);
}

export async function show() {
  const data = await call('GET', '/api/v1/audit/due');
  const table = $('due-table');
  header(table.tHead, ['State', 'Country', 'Location', 'Every', 'Next due', 'Last audited', 'Assignee', '']);
  fill(table.tBodies[0], data.plans.map(function (p) {
    const state = make('span', 'due-state ' + p.state, words[p.state] || p.state);
    const cell = make('span', 'row-actions');
    if (p.may_start) {
      cell.appendChild(button('Start', p.state === 'ok' ? 'quiet' : null, function () { return start(p); }));
      cell.appendChild(button('Remove', 'quiet danger', async function () {
        await call('DELETE', '/api/v1/audit/plans/' + p.plan_id);
        say('Removed the plan of ' + p.country + (p.location ? ' / ' + p.location : ''));
        await show();
      }));
    }
    const last = p.last_audit_id ? make('a', null, when(p.last_ended_at)) : 'never';
    if (p.last_audit_id) last.href = '#/audit/' + encodeURIComponent(p.last_audit_id);
    return row([state, p.country, p.location || 'whole country', p.every_days + ' days', when(p.next_due_at), last, p.assignee || '', cell],
      p.state === 'overdue' ? 'overdue' : null);
  }), 'No audit plans yet. Add one to see what is due.', 8);
}

export function bind() {
  $('due-new').addEventListener('click', function () {
    edit('New audit plan', fields, { every_days: 30 }, false, 'Add the plan', async function (body) {
      const made = await call('POST', '/api/v1/audit/plans', body);
      say('Added the plan of ' + made.plan.country + (made.plan.location ? ' / ' + made.plan.location : '') + ', due by ' + when(made.plan.next_due_at));
      await show();
    });
  });
}
