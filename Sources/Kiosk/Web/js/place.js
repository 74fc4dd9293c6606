/* Where the station stands and what an audit covers: the current location in the top bar, the
 * dialog that chooses it on the scanning screen (a scanned LOC: label sets it too), and the
 * start dialog that narrows a new audit to some locations of its country. Choices are buttons
 * and checkboxes in dialogs, never a select: a barcode gun's keys cannot change them (gun.js). */

import { app } from './app.js';
import { make, setText } from './elements.js';
import { el } from './dom.js';
import { arr, fmtInt, obj, str } from './format.js';
import { api, errorMessage } from './api.js';
import { closeDialog, openDialog } from './dialog.js';

/** The top bar's "At Dock B" (or that no location is set). */
export function renderLocation() {
  const s = app.state || {};
  const audit = obj(s.audit);
  const show = app.screen === 'scan' && audit && audit.is_active !== false;
  el.locationLabel.hidden = !show;
  el.locationLabel.textContent = '';
  if (!show) return;
  if (s.location) {
    el.locationLabel.appendChild(document.createTextNode('At '));
    el.locationLabel.appendChild(make('strong', null, str(s.location)));
  } else {
    el.locationLabel.appendChild(document.createTextNode('Location not set'));
  }
}

export function openLocationDialog() {
  const s = app.state || {};
  const list = el.locationChoices;
  list.textContent = '';
  setText(el.locationError, '');
  const current = str(s.location);
  const add = function (name, label, count) {
    const li = make('li');
    const b = make('button', 'button choice' + (name === current ? ' primary' : ''), label);
    b.type = 'button';
    b.setAttribute('data-location', name);
    if (name === current) b.setAttribute('aria-current', 'true');
    if (count !== null) b.appendChild(make('span', 'choice-count', fmtInt(count) + ' assets'));
    b.addEventListener('click', function () { chooseLocation(name || null); });
    li.appendChild(b);
    list.appendChild(li);
  };
  arr(s.locations).forEach(function (l) { l = obj(l); if (l) add(str(l.location), str(l.location), l.expected_assets); });
  add('', 'No location (do not mark misplaced)', null);
  openDialog(el.locationDialog, el.locationCancel);
}

function chooseLocation(name) {
  api('POST', '/api/location', { location: name }, 10000).then(function (res) {
    if (res.ok && obj(res.data)) {
      if (app.state) app.state.location = res.data.location;
      renderLocation();
      closeDialog(el.locationDialog);
    } else {
      setText(el.locationError, '\u2716 ' + errorMessage(res, 'The location was not changed'));
    }
  }, function () {
    setText(el.locationError, '\u2716 The kiosk service is not responding; the location was not changed.');
  });
}

let scopeCountry = null;
let scopeThen = null;

/** The start dialog of a country: its locations to tick (none: the whole country). `then`
 *  gets the chosen locations when Start is pressed. */
export function openScopeDialog(country, then) {
  scopeCountry = country;
  scopeThen = then;
  setText(el.scopeTitle, 'Start an audit of ' + country);
  setText(el.scopeError, '');
  el.scopeChoices.textContent = '';
  el.scopeChoices.appendChild(make('li', 'muted', 'Loading the locations\u2026'));
  el.scopeStart.disabled = false;
  openDialog(el.scopeDialog, el.scopeCancel);
  api('GET', '/api/locations?country=' + encodeURIComponent(country), null, 10000).then(function (res) {
    if (scopeCountry !== country) return;
    el.scopeChoices.textContent = '';
    const locations = arr(obj(res.data) && res.data.locations);
    if (!res.ok) {
      el.scopeChoices.appendChild(make('li', 'muted', 'The locations could not be listed (' + errorMessage(res, 'error') + '): the audit covers the whole country.'));
      return;
    }
    if (!locations.length) {
      el.scopeChoices.appendChild(make('li', 'muted', 'The assets of ' + country + ' have no locations: the audit covers the whole country.'));
      return;
    }
    locations.forEach(function (l, i) {
      l = obj(l);
      if (!l) return;
      const li = make('li');
      const label = make('label', 'check');
      const box = make('input');
      box.type = 'checkbox';
      box.value = str(l.location);
      box.id = 'scope-' + i;
      label.appendChild(box);
      label.appendChild(make('span', 'check-name', str(l.location)));
      label.appendChild(make('span', 'choice-count', fmtInt(l.expected_assets) + ' assets'));
      li.appendChild(label);
      el.scopeChoices.appendChild(li);
    });
  }, function () {
    el.scopeChoices.textContent = '';
    el.scopeChoices.appendChild(make('li', 'muted', 'The kiosk service is not responding.'));
  });
}

export function confirmScope() {
  const chosen = Array.prototype.filter.call(el.scopeChoices.querySelectorAll('input[type="checkbox"]'), function (b) { return b.checked; })
    .map(function (b) { return b.value; });
  const then = scopeThen;
  scopeThen = null;
  scopeCountry = null;
  closeDialog(el.scopeDialog);
  if (then) then(chosen);
}

export function cancelScope() {
  scopeThen = null;
  scopeCountry = null;
  closeDialog(el.scopeDialog);
}
