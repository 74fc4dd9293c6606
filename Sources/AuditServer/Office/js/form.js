/* Forms built from a list of fields, each with its label and, beside it, the error the API
 * gives for it (the 422 envelope's `errors`, or a duplicate's field). Values go in as text. */
import { $, make } from './elements.js';

/** A field: {name, label, type: text|number|email|password|area|select|check, choices, required, max, wide, initial}. */
function input(f, id) {
  let n;
  if (f.type === 'select') {
    n = make('select');
    (f.choices || []).forEach(function (c) {
      const choice = typeof c === 'object' ? c : { value: c, label: c === '' ? '(none)' : c };
      const o = make('option', null, choice.label);
      o.value = String(choice.value);
      n.appendChild(o);
    });
  } else if (f.type === 'area') {
    n = make('textarea');
    n.rows = 2;
  } else {
    n = make('input');
    n.type = f.type === 'check' ? 'checkbox' : (f.type || 'text');
    if (f.type === 'number') { n.min = f.min === undefined ? 0 : f.min; n.step = 1; }
  }
  n.id = id;
  n.name = f.name;
  if (f.max) n.maxLength = f.max;
  if (f.required) n.setAttribute('aria-required', 'true');
  if (f.type === 'password') n.autocomplete = 'new-password';
  return n;
}

function set(n, f, value) {
  // A select with nothing to set keeps its first choice.
  if (f.type === 'select' && (value === undefined || value === null)) return;
  if (f.type === 'check') n.checked = value === true;
  else n.value = value === undefined || value === null ? '' : String(value);
}

export function build(container, fields, values) {
  container.replaceChildren();
  fields.forEach(function (f) {
    const id = container.id + '-' + f.name;
    const wrap = make('div', 'field' + (f.type === 'check' ? ' check' : '') + (f.wide ? ' wide' : ''));
    const n = input(f, id);
    const label = make('label', null, f.label + (f.required ? ' *' : ''));
    label.htmlFor = id;
    const error = make('p', 'field-error');
    error.id = id + '-error';
    error.setAttribute('aria-live', 'polite');
    n.setAttribute('aria-describedby', error.id);
    set(n, f, values && Object.prototype.hasOwnProperty.call(values, f.name) ? values[f.name] : f.initial);
    if (f.type === 'check') wrap.append(n, label, error); else wrap.append(label, n, error);
    container.appendChild(wrap);
  });
}

/** The body to send. A new record leaves out empty fields; an edit sends every text field, so
 * an emptied optional text is cleared and an emptied required one is refused beside it. */
export function read(container, fields, editing) {
  const body = {};
  fields.forEach(function (f) {
    const n = $(container.id + '-' + f.name);
    if (f.type === 'check') { body[f.name] = n.checked; return; }
    const v = f.type === 'password' ? n.value : n.value.trim();
    if (f.type === 'number' || (f.type === 'select' && f.numeric)) {
      if (v !== '') body[f.name] = /^-?\d+$/.test(v) ? parseInt(v, 10) : v;
    } else if (f.type === 'select') {
      if (v !== '') body[f.name] = v;
    } else if (v !== '' || (editing && !f.keep)) {
      body[f.name] = f.list ? v.split(/[,\n]/).map(function (x) { return x.trim(); }).filter(Boolean) : v;
    }
  });
  return body;
}

/** Shows an API error: each field's messages beside it, the rest in `general`. Focuses the first bad field. */
export function errors(container, fields, error, general) {
  container.querySelectorAll('.field-error').forEach(function (p) { p.textContent = ''; });
  container.querySelectorAll('[aria-invalid]').forEach(function (n) { n.removeAttribute('aria-invalid'); });
  general.textContent = '';
  if (!error) return;
  const rest = [];
  let first = null;
  const named = (error.fields) || {};
  Object.keys(named).forEach(function (name) {
    const messages = [].concat(named[name]).join('; ');
    const n = fields.some(function (f) { return f.name === name; }) ? $(container.id + '-' + name) : null;
    if (!n) { rest.push(name + ' ' + messages); return; }
    $(n.id + '-error').textContent = messages;
    n.setAttribute('aria-invalid', 'true');
    if (!first) first = n;
  });
  general.textContent = rest.length ? rest.join('. ') : (first ? 'Correct the fields marked below.' : (error.message || String(error)));
  if (first) first.focus();
}

/** Opens the one editing dialog with `fields`, and calls `save(body)` on submit until it succeeds. */
export function edit(title, fields, values, editing, saveLabel, save) {
  const dialog = $('record-dialog');
  const container = $('record-fields');
  $('record-dialog-title').textContent = title;
  $('record-save').textContent = saveLabel;
  build(container, fields, values);
  errors(container, fields, null, $('record-error'));
  $('record-form').onsubmit = async function (e) {
    e.preventDefault();
    $('record-save').disabled = true;
    try {
      await save(read(container, fields, editing));
      dialog.close();
    } catch (err) {
      errors(container, fields, err, $('record-error'));
    } finally {
      $('record-save').disabled = false;
    }
  };
  dialog.showModal();
  const first = container.querySelector('input, select, textarea');
  if (first) first.focus();
}
