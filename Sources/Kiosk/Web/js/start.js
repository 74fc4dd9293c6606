/* The start screen: the countries with their running audits, starting or joining one, and the
 * name of who is scanning (saved with the kiosk; the name dialog uses saveUser too). */

import { app } from './app.js';
import { make, setText } from './elements.js';
import { cssEscape, el } from './dom.js';
import { arr, obj, plural, str } from './format.js';
import { api, errorMessage } from './api.js';
import { openScopeDialog } from './place.js';
import { emit } from './bus.js';

let startMessageFor = null;
let countriesKey = null;

export function renderStart() {
  const s = app.state || {};
  setText(el.startStation, str(s.station));
  if (document.activeElement !== el.userName) el.userName.value = str(s.user);
  emit('topbar');
  if (s.countries_error) {
    el.countriesError.hidden = false;
    setText(el.countriesError, '\u26A0 The countries could not be listed: ' + str(s.countries_error));
  } else {
    el.countriesError.hidden = true;
  }
  const countries = arr(s.countries);
  const key = JSON.stringify(countries);
  if (key === countriesKey) { focusStart(); return; }
  countriesKey = key;
  let focusedCountry = null;
  const active = document.activeElement;
  if (active && active.getAttribute && active.getAttribute('data-country')) focusedCountry = active.getAttribute('data-country');
  el.countries.textContent = '';
  countries.forEach(function (c) {
    c = obj(c);
    if (!c) return;
    const code = str(c.country);
    const running = !!c.active_audit_id;
    const li = make('li', 'country');
    li.setAttribute('data-country', code);
    li.setAttribute('data-running', running ? 'true' : 'false');
    const codeId = 'country-' + code.replace(/[^A-Za-z0-9_-]/g, '_');
    const codeEl = make('span', 'country-code', code);
    codeEl.id = codeId;
    li.appendChild(codeEl);
    li.appendChild(make('span', 'country-count', plural(c.expected_assets, 'expected asset', 'expected assets')));
    li.appendChild(make('span', 'country-running', running ? '\u25CF Audit running' : 'No audit running'));
    const button = make('button', 'button ' + (running ? 'primary' : ''), running ? 'Join running audit' : 'Start audit');
    button.type = 'button';
    button.setAttribute('data-country', code);
    button.setAttribute('data-action', running ? 'join' : 'start');
    if (running) button.setAttribute('data-audit-id', str(c.active_audit_id));
    button.setAttribute('aria-describedby', codeId);
    li.appendChild(button);
    el.countries.appendChild(li);
  });
  el.countriesEmpty.hidden = countries.length > 0 || !!s.countries_error;
  if (focusedCountry) {
    const again = el.countries.querySelector('button[data-country="' + cssEscape(focusedCountry) + '"]');
    if (again) again.focus();
  }
  focusStart();
}

/** No button of the start screen takes the focus by itself: a barcode gun's Enter must never
 *  start or join an audit (gun.js swallows it anyway). Tab reaches them. */
function focusStart() {
  startMessageFor = null;
  const active = document.activeElement;
  if (active && active !== document.body && active.offsetParent === null) active.blur();
}

export function startMessage(text) {
  el.startMessage.hidden = !text;
  setText(el.startMessage, text || '');
}

const COPY_TIMEOUT_MS = 120000;

export function onCountryClick(e) {
  const button = e.target.closest ? e.target.closest('button[data-action]') : null;
  if (!button || button.disabled) return;
  const action = button.getAttribute('data-action');
  const country = button.getAttribute('data-country');
  const buttons = el.countries.querySelectorAll('button');
  const setBusy = function (busy) { for (let i = 0; i < buttons.length; i++) buttons[i].disabled = busy; };
  setBusy(true);
  startMessage(action === 'join' ? 'Joining the audit of ' + country + ': copying it to this station\u2026' : 'Starting the audit of ' + country + '…');
  if (action === 'start') {
    // Starting asks which locations first (none: the whole country).
    setBusy(false);
    startMessage('');
    openScopeDialog(country, function (locations) {
      setBusy(true);
      startMessage('Starting the audit of ' + country + (locations.length ? ' at ' + locations.join(', ') : '') + '\u2026');
      go(saveUserIfChanged().then(function () {
        return api('POST', '/api/start', { country: country, locations: locations }, COPY_TIMEOUT_MS);
      }));
    });
    return;
  }
  go(saveUserIfChanged().then(function () {
    // A connected kiosk copies the audit before it scans into it (a large audit takes a while).
    return api('POST', '/api/join', { audit_id: button.getAttribute('data-audit-id') }, COPY_TIMEOUT_MS);
  }));

  function go(request) { request.then(function (res) {
    setBusy(false);
    if (res.ok && obj(res.data) && obj(res.data.audit)) {
      startMessage('');
      emit('enter-audit', res.data.audit);
    } else if (res.status === 409 && obj(res.data) && res.data.error === 'AUDIT_ALREADY_ACTIVE') {
      startMessage('An audit of ' + country + ' is already running. Join it to scan into it.');
      startMessageFor = country;
      emit('reload');
    } else {
      startMessage('\u2716 ' + errorMessage(res, 'That did not work'));
      emit('reload');
    }
  }, function () {
    setBusy(false);
    startMessage('\u2716 The kiosk service is not responding. Try again in a moment.');
  }); }
}

export function saveUser(name, statusNode) {
  const trimmed = str(name).trim();
  if (!trimmed) {
    if (statusNode) { statusNode.setAttribute('data-kind', 'error'); setText(statusNode, 'Type who is scanning.'); }
    return Promise.resolve(false);
  }
  if (statusNode) { statusNode.removeAttribute('data-kind'); setText(statusNode, 'Saving…'); }
  return api('POST', '/api/user', { name: trimmed }, 10000).then(function (res) {
    if (res.ok && obj(res.data)) {
      const user = str(res.data.user || trimmed);
      if (app.state) app.state.user = user;
      emit('topbar');
      if (statusNode) { statusNode.removeAttribute('data-kind'); setText(statusNode, '\u2714 Saved: scans are recorded as ' + user + '.'); }
      return true;
    }
    if (statusNode) { statusNode.setAttribute('data-kind', 'error'); setText(statusNode, '\u2716 ' + errorMessage(res, 'The name was not saved')); }
    return false;
  }, function () {
    if (statusNode) { statusNode.setAttribute('data-kind', 'error'); setText(statusNode, '\u2716 The kiosk service is not responding; the name was not saved.'); }
    return false;
  });
}

function saveUserIfChanged() {
  const name = el.userName.value.trim();
  if (!name || name === str(app.state && app.state.user)) return Promise.resolve(true);
  return saveUser(name, el.userStatus);
}

/** The countries are drawn again the next time the start screen shows. */
export function forgetCountries() { countriesKey = null; }
