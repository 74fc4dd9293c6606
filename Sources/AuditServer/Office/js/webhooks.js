/* Webhooks (ADMIN only): the receivers of audit events, their newest deliveries with each one's
 * attempts and state, a form to add one (its secret goes in once and is never shown again) and
 * a button to remove one. The API refuses anyone else. */
import { call } from './api.js';
import { $ } from './elements.js';
import { row, fill, header, when, messageLine, actionButton } from './dom.js';
import { edit } from './form.js';

const events = ['audit.started', 'audit.ended', 'audit.overdue'];
const fields = [
  { name: 'url', label: 'URL (http:// or https://)', required: true, max: 2000, wide: true },
  { name: 'events', label: 'Events, comma-separated (' + events.join(', ') + ')', list: true, required: true, max: 200, wide: true },
  { name: 'secret', label: 'Signing secret (16 characters or more; not shown again)', type: 'password', required: true, max: 512, wide: true }
];

const say = messageLine('webhooks-message');

export async function show() {
  const [hooks, deliveries] = await Promise.all([call('GET', '/api/v1/webhooks'), call('GET', '/api/v1/webhooks/deliveries?limit=50')]);
  const table = $('webhooks-table');
  header(table.tHead, ['URL', 'Events', 'Added', '']);
  fill(table.tBodies[0], hooks.webhooks.map(function (w) {
    const remove = actionButton('Remove', 'quiet danger', async function () {
      await call('DELETE', '/api/v1/webhooks/' + w.id);
      say('Removed the webhook to ' + w.url);
      await show();
    }, say);
    return row([w.url, w.events.join(', '), when(w.created_at), remove]);
  }), 'No webhooks.', 4);
  const list = $('deliveries-table');
  header(list.tHead, ['Event', 'URL', 'Queued', 'State', 'Attempts', 'Last answer', 'Next try']);
  fill(list.tBodies[0], deliveries.deliveries.map(function (d) {
    const last = d.last_status ? String(d.last_status) : (d.last_error || '');
    return row([d.event, d.url, when(d.created_at), d.state, String(d.attempts), last, d.state === 'pending' && d.next_attempt_at ? when(d.next_attempt_at) : ''],
      d.state === 'failed' ? 'overdue' : null);
  }), 'Nothing sent yet.', 7);
}

export function bind() {
  $('webhooks-new').addEventListener('click', function () {
    edit('New webhook', fields, { events: 'audit.ended' }, false, 'Add the webhook', async function (body) {
      const made = await call('POST', '/api/v1/webhooks', body);
      say('Added the webhook to ' + made.webhook.url);
      await show();
    });
  });
}
