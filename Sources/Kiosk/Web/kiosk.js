/* AuditStation kiosk page (docs/kiosk-api.md). Plain JavaScript, no build step, no libraries.
 *
 * Screens: #screen-pin, #screen-start, #screen-scan, #screen-summary (one visible at a time).
 * Typed scans go into a localStorage queue before they are sent, and stay there until the kiosk
 * answers; after a reload they are sent again with the same scan_id (the kiosk never counts a
 * scan_id twice). Everything that comes from the kiosk is shown with textContent. */
(function () {
  'use strict';

  var QUEUE_KEY = 'auditstation.kiosk.queue.v1';
  var MUTE_KEY = 'auditstation.kiosk.muted';
  var MAX_IN_FLIGHT = 3;
  var SCAN_TIMEOUT_MS = 15000;
  var OUTLINE_CLEAR_MS = 600;
  var LIST_PER_PAGE = 50;
  var RECENT_LIMIT = 20;
  var OUTCOME_LOG_LIMIT = 5000;

  var STATUS = {
    found_expected: { symbol: '\u2714', title: 'FOUND', word: 'Found' },
    already_scanned: { symbol: '\u21BA', title: 'ALREADY SCANNED', word: 'Already scanned' },
    unexpected: { symbol: '\u26A0', title: 'UNEXPECTED', word: 'Unexpected' },
    unknown: { symbol: '?', title: 'UNKNOWN TAG', word: 'Unknown tag' },
    rejected: { symbol: '\u2716', title: 'NOT RECORDED', word: 'Not recorded' },
    pending: { symbol: '\u2026', title: 'SENDING\u2026', word: 'Sending' },
    // A connected station's scan of a tag outside its copy: the server decides it.
    awaiting: { symbol: '\u25F7', title: 'PENDING', word: 'Pending' },
    idle: { symbol: '\u25B8', title: 'READY', word: 'Ready' }
  };

  var REASONS = {
    other_country: 'Registered in another country',
    archived: 'Archived asset: not expected in this audit',
    disposed: 'Disposed asset: not expected in this audit',
    not_in_expected_set: 'Not in the expected set when this audit started',
    unknown: 'No asset has this tag or serial number'
  };

  // Hooks for browser tests and the latency benchmark.
  var hooks = window.kiosk = window.kiosk || {};
  hooks.lastOutcomeAt = null;
  hooks.outcomes = [];

  var $ = function (id) { return document.getElementById(id); };
  var el = {};

  var state = null;            // the last State from the kiosk
  var screen = 'loading';
  var summary = null;          // {audit, duration_seconds, missing, unexpected} of the audit shown
  var summaryLoading = null;   // audit id being fetched
  var progress = null;         // {audit_id, total_assets, scanned_count, ...} currently shown
  var recent = [];             // ScanEvents, newest first
  var shown = new Set();       // scan_ids whose outcome has been shown
  var shownOrder = [];
  var outcomeSerial = 0;       // increases with every outcome rendered
  var lastLocalScanId = null;

  // ---------------------------------------------------------------- small helpers

  function str(v) { return v === null || v === undefined ? '' : String(v); }
  function obj(v) { return v && typeof v === 'object' && !Array.isArray(v) ? v : null; }
  function arr(v) { return Array.isArray(v) ? v : []; }
  function num(v) { var n = Number(v); return isFinite(n) ? n : 0; }
  function fmtInt(v) { return Math.round(num(v)).toLocaleString('en-US'); }
  function fmtPercent(v) { return String(Math.round(num(v) * 100) / 100); }

  function setText(node, text) { if (node && node.textContent !== text) node.textContent = text; }

  function make(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }

  function parseTime(iso) {
    if (!iso) return null;
    var d = new Date(iso);
    return isNaN(d.getTime()) ? null : d;
  }

  function two(n) { return (n < 10 ? '0' : '') + n; }

  function fmtTime(iso) {
    var d = parseTime(iso);
    if (!d) return str(iso);
    var t = two(d.getHours()) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds());
    var now = new Date();
    if (d.toDateString() === now.toDateString()) return t;
    var months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    var day = d.getDate() + ' ' + months[d.getMonth()];
    if (d.getFullYear() !== now.getFullYear()) day += ' ' + d.getFullYear();
    return day + ', ' + t;
  }

  function fmtDuration(seconds) {
    var s = Math.max(0, Math.round(num(seconds)));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    if (h > 0) return h + ' h ' + two(m) + ' min';
    if (m > 0) return m + ' min ' + two(r) + ' s';
    return r + ' s';
  }

  function plural(n, one, many) { return fmtInt(n) + ' ' + (num(n) === 1 ? one : many); }

  function storageGet(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }
  function storageSet(key, value) { try { window.localStorage.setItem(key, value); return true; } catch (e) { return false; } }

  function newScanId() {
    var b = new Uint8Array(16);
    if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(b);
    else for (var i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = [];
    for (var j = 0; j < 16; j++) h.push((b[j] + 0x100).toString(16).slice(1));
    return h.slice(0, 4).join('') + '-' + h.slice(4, 6).join('') + '-' + h.slice(6, 8).join('') + '-' +
      h.slice(8, 10).join('') + '-' + h.slice(10, 16).join('');
  }

  function parseJSON(text) { try { return JSON.parse(text); } catch (e) { return null; } }

  // ---------------------------------------------------------------- HTTP

  /** One call to the kiosk. Resolves {status, ok, data, headers}; rejects only on a network error. */
  function api(method, path, body, timeoutMs) {
    var init = { method: method, headers: {}, credentials: 'same-origin', cache: 'no-store' };
    if (method === 'POST') {
      init.headers['Content-Type'] = 'application/json';
      init.headers['X-Kiosk'] = '1';
      init.body = JSON.stringify(body || {});
    }
    var timer = null;
    if (timeoutMs && window.AbortController) {
      var ctl = new AbortController();
      init.signal = ctl.signal;
      timer = setTimeout(function () { ctl.abort(); }, timeoutMs);
    }
    return fetch(path, init).then(function (res) {
      return res.text().then(function (text) {
        if (timer) clearTimeout(timer);
        var data = text ? parseJSON(text) : null;
        if (res.status === 401 && obj(data) && data.error === 'PIN_REQUIRED' && path !== '/api/state') {
          setTimeout(loadState, 0);
        }
        return { status: res.status, ok: res.ok, data: data, headers: res.headers };
      });
    }, function (err) {
      if (timer) clearTimeout(timer);
      throw err;
    });
  }

  function errorMessage(res, fallback) {
    var d = obj(res && res.data);
    if (d && d.message) return str(d.message);
    if (res && res.status) return fallback + ' (HTTP ' + res.status + ')';
    return fallback;
  }

  // ---------------------------------------------------------------- state and screens

  var stateRetry = null;
  var stateSeq = 0;

  /** Asks for the state; only the answer to the newest request is used. */
  function loadState() {
    var seq = ++stateSeq;
    api('GET', '/api/state', null, 10000).then(function (res) {
      if (seq !== stateSeq) return;
      if (res.ok && obj(res.data)) {
        applyState(res.data);
      } else {
        retryState(errorMessage(res, 'The kiosk could not give its state'));
      }
    }, function () {
      if (seq !== stateSeq) return;
      retryState('The kiosk service is not responding. Trying again\u2026');
    });
  }

  function retryState(message) {
    if (screen === 'loading') setText(el.loadingMessage, message);
    clearTimeout(stateRetry);
    stateRetry = setTimeout(loadState, 2000);
  }

  function applyState(s) {
    s = obj(s);
    if (!s) return;
    clearTimeout(stateRetry);
    if (s.pin_required) {
      state = s;
      closeEvents();
      setText(el.pinStation, str(s.station));
      showScreen('pin');
      return;
    }
    state = s;
    openEvents();
    var audit = obj(s.audit);
    if (!audit) {
      summary = null;
      showScreen('start');
      renderStart();
    } else if (audit.is_active !== false) {
      var changed = !progress || progress.audit_id !== audit.id;
      applyProgress(audit.id, audit, false);
      if (changed) { recent = []; clearLists(); showIdle(); }
      mergeRecent(arr(s.recent), true);
      showScreen('scan');
      renderCamera();
      scheduleLists(changed ? 0 : 300);
    } else {
      showScreen('summary');
      ensureSummary(audit);
    }
    renderTopbar();
    renderConnection();
    pump();
  }

  function showScreen(name) {
    var before = screen;
    screen = name;
    document.body.setAttribute('data-screen', name);
    ['loading', 'pin', 'start', 'scan', 'summary'].forEach(function (n) {
      var section = $('screen-' + n);
      if (section) section.hidden = n !== name;
    });
    el.topbar.hidden = name === 'pin' || name === 'loading';
    el.scanControls.hidden = name !== 'scan';
    if (name !== 'scan') {
      stopPreview();
      clearOutlines();
      closeDialog(el.confirmDialog);
      closeDialog(el.userDialog);
    }
    if (name === 'scan' && before !== 'scan') {
      focusEntry();
    } else if (name === 'pin' && before !== 'pin') {
      el.pin.focus();
    } else if (name === 'start' && before !== 'start') {
      countriesKey = null;
    }
    renderSending();
  }

  function renderTopbar() {
    var s = state || {};
    setText(el.stationName, str(s.station));
    var audit = obj(s.audit);
    el.auditLabel.textContent = '';
    if (audit && screen === 'summary') {
      el.auditLabel.appendChild(document.createTextNode('Audit '));
      el.auditLabel.appendChild(make('strong', null, str(audit.country)));
      el.auditLabel.appendChild(document.createTextNode(audit.is_active === false ? ' (ended)' : ' (running)'));
    }
    el.scannerLabel.textContent = '';
    if (s.user) {
      el.scannerLabel.appendChild(document.createTextNode('Scanning as '));
      el.scannerLabel.appendChild(make('strong', null, str(s.user)));
    }
    setText(el.auditCountry, audit ? 'Audit of ' + str(audit.country) + (audit.started_at ? ' \u00B7 since ' + fmtTime(audit.started_at) : '') : '');
  }

  function renderConnection() {
    var c = obj(state && state.connection) || {};
    var st = c.state === 'online' || c.state === 'offline' ? c.state : 'standalone';
    el.connection.setAttribute('data-state', st);
    var text = st === 'online' ? '\u25CF Online'
      : st === 'offline' ? '\u25B2 Offline \u00B7 scans kept'
        : '\u25A0 Standalone';
    setText(el.connection, text);
    el.connection.title = st === 'offline'
      ? 'The server cannot be reached' + (c.last_error ? ' (' + str(c.last_error) + ')' : '') + ': scans are kept on this station and sent when it is back'
      : st === 'online' ? 'Connected to ' + str(c.server || 'the server') : 'This PC keeps the audit';
    if (st === 'standalone') {
      el.pending.hidden = true;
      el.lastSync.hidden = true;
    } else {
      var n = num(c.pending_scans);
      el.pending.hidden = false;
      setText(el.pending, n === 0 ? 'all synced' : fmtInt(n) + ' to sync');
      el.pending.title = n === 0 ? 'No scans wait for the server' : plural(n, 'scan waits', 'scans wait') + ' in this station\u2019s outbox for the server';
      el.pending.setAttribute('data-count', String(n));
      el.lastSync.hidden = false;
      setText(el.lastSync, c.last_sync_at ? 'synced ' + fmtTime(c.last_sync_at) : 'not synced yet');
      el.lastSync.title = c.last_sync_at ? str(c.last_sync_at) : '';
    }
  }

  // ---------------------------------------------------------------- PIN

  var pinUnlockAt = 0;
  var pinTimer = null;

  function submitPin(e) {
    e.preventDefault();
    if (Date.now() < pinUnlockAt) return;
    var pin = el.pin.value;
    if (!pin) { setText(el.pinError, 'Type the PIN first.'); el.pin.focus(); return; }
    el.pinSubmit.disabled = true;
    setText(el.pinError, '');
    api('POST', '/api/pin', { pin: pin }, 10000).then(function (res) {
      el.pinSubmit.disabled = false;
      if (res.status === 204 || res.ok) {
        el.pin.value = '';
        loadState();
      } else if (res.status === 429) {
        var wait = parseInt(res.headers.get('Retry-After') || '30', 10);
        if (!(wait > 0)) wait = 30;
        lockPin(wait, errorMessage(res, 'Too many wrong PINs'));
      } else if (res.status === 401) {
        el.pin.value = '';
        setText(el.pinError, '\u2716 Wrong PIN. Try again.');
        el.pin.focus();
      } else {
        setText(el.pinError, '\u2716 ' + errorMessage(res, 'The PIN could not be checked'));
      }
    }, function () {
      el.pinSubmit.disabled = false;
      setText(el.pinError, '\u2716 The kiosk service is not responding. Try again in a moment.');
    });
  }

  function lockPin(seconds, message) {
    pinUnlockAt = Date.now() + seconds * 1000;
    el.pinSubmit.disabled = true;
    clearInterval(pinTimer);
    var tick = function () {
      var left = Math.ceil((pinUnlockAt - Date.now()) / 1000);
      if (left <= 0) {
        clearInterval(pinTimer);
        el.pinSubmit.disabled = false;
        setText(el.pinError, 'You can try the PIN again now.');
        el.pin.focus();
        return;
      }
      setText(el.pinError, '\u2716 Too many wrong PINs. Wait ' + left + ' s before the next try.');
    };
    tick();
    pinTimer = setInterval(tick, 1000);
    el.pinError.title = message;
  }

  // ---------------------------------------------------------------- start screen

  var startMessageFor = null;
  var countriesKey = null;

  function renderStart() {
    var s = state || {};
    setText(el.startStation, str(s.station));
    if (document.activeElement !== el.userName) el.userName.value = str(s.user);
    renderTopbar();
    if (s.countries_error) {
      el.countriesError.hidden = false;
      setText(el.countriesError, '\u26A0 The countries could not be listed: ' + str(s.countries_error));
    } else {
      el.countriesError.hidden = true;
    }
    var countries = arr(s.countries);
    var key = JSON.stringify(countries);
    if (key === countriesKey) { focusStart(); return; }
    countriesKey = key;
    var focusedCountry = null;
    var active = document.activeElement;
    if (active && active.getAttribute && active.getAttribute('data-country')) focusedCountry = active.getAttribute('data-country');
    el.countries.textContent = '';
    countries.forEach(function (c) {
      c = obj(c);
      if (!c) return;
      var code = str(c.country);
      var running = !!c.active_audit_id;
      var li = make('li', 'country');
      li.setAttribute('data-country', code);
      li.setAttribute('data-running', running ? 'true' : 'false');
      var codeId = 'country-' + code.replace(/[^A-Za-z0-9_-]/g, '_');
      var codeEl = make('span', 'country-code', code);
      codeEl.id = codeId;
      li.appendChild(codeEl);
      li.appendChild(make('span', 'country-count', plural(c.expected_assets, 'expected asset', 'expected assets')));
      li.appendChild(make('span', 'country-running', running ? '\u25CF Audit running' : 'No audit running'));
      var button = make('button', 'button ' + (running ? 'primary' : ''), running ? 'Join running audit' : 'Start audit');
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
      var again = el.countries.querySelector('button[data-country="' + cssEscape(focusedCountry) + '"]');
      if (again) again.focus();
    }
    focusStart();
  }

  /** Nothing focused on the start screen: the first button; after a refused start: its join. */
  function focusStart() {
    if (startMessageFor) {
      var join = el.countries.querySelector('button[data-action="join"][data-country="' + cssEscape(startMessageFor) + '"]');
      if (join) { join.focus(); startMessageFor = null; return; }
    }
    var active = document.activeElement;
    if (!active || active === document.body || active.offsetParent === null) {
      var first = el.countries.querySelector('button');
      if (first) first.focus();
    }
  }

  function cssEscape(v) { return window.CSS && CSS.escape ? CSS.escape(v) : String(v).replace(/["\\]/g, '\\$&'); }

  function startMessage(text) {
    el.startMessage.hidden = !text;
    setText(el.startMessage, text || '');
  }

  function onCountryClick(e) {
    var button = e.target.closest ? e.target.closest('button[data-action]') : null;
    if (!button || button.disabled) return;
    var action = button.getAttribute('data-action');
    var country = button.getAttribute('data-country');
    var buttons = el.countries.querySelectorAll('button');
    var setBusy = function (busy) { for (var i = 0; i < buttons.length; i++) buttons[i].disabled = busy; };
    setBusy(true);
    startMessage(action === 'join' ? 'Joining the audit of ' + country + '…' : 'Starting the audit of ' + country + '…');
    saveUserIfChanged().then(function () {
      return action === 'join'
        ? api('POST', '/api/join', { audit_id: button.getAttribute('data-audit-id') }, 15000)
        : api('POST', '/api/start', { country: country }, 15000);
    }).then(function (res) {
      setBusy(false);
      if (res.ok && obj(res.data) && obj(res.data.audit)) {
        startMessage('');
        enterAudit(res.data.audit);
      } else if (res.status === 409 && obj(res.data) && res.data.error === 'AUDIT_ALREADY_ACTIVE') {
        startMessage('An audit of ' + country + ' is already running. Join it to scan into it.');
        startMessageFor = country;
        loadState();
      } else {
        startMessage('\u2716 ' + errorMessage(res, 'That did not work'));
        loadState();
      }
    }, function () {
      setBusy(false);
      startMessage('\u2716 The kiosk service is not responding. Try again in a moment.');
    });
  }

  function enterAudit(audit) {
    if (!state) state = {};
    state.audit = audit;
    applyState(state);
  }

    function saveUser(name, statusNode) {
    var trimmed = str(name).trim();
    if (!trimmed) {
      if (statusNode) { statusNode.setAttribute('data-kind', 'error'); setText(statusNode, 'Type who is scanning.'); }
      return Promise.resolve(false);
    }
    if (statusNode) { statusNode.removeAttribute('data-kind'); setText(statusNode, 'Saving…'); }
    return api('POST', '/api/user', { name: trimmed }, 10000).then(function (res) {
      if (res.ok && obj(res.data)) {
        var user = str(res.data.user || trimmed);
        if (state) state.user = user;
        renderTopbar();
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
    var name = el.userName.value.trim();
    if (!name || name === str(state && state.user)) return Promise.resolve(true);
    return saveUser(name, el.userStatus);
  }

  // ---------------------------------------------------------------- progress

  /** Shows the numbers of `auditId`. Within one audit the counts only grow, so an older answer
   *  that arrives late (a POST answer after a newer pushed event) never moves them back. */
  function applyProgress(auditId, p, force) {
    p = obj(p);
    if (!p || !auditId) return;
    if (progress && progress.audit_id === auditId && !force) {
      if (num(p.scanned_count) < progress.scanned_count && num(p.unexpected_count) <= progress.unexpected_count) return;
      if (num(p.unexpected_count) < progress.unexpected_count && num(p.scanned_count) <= progress.scanned_count) return;
    }
    progress = {
      audit_id: auditId,
      total_assets: num(p.total_assets),
      scanned_count: num(p.scanned_count),
      missing_count: num(p.missing_count),
      unexpected_count: num(p.unexpected_count),
      completion_percentage: num(p.completion_percentage)
    };
    if (state && obj(state.audit) && state.audit.id === auditId) {
      ['total_assets', 'scanned_count', 'missing_count', 'unexpected_count', 'completion_percentage'].forEach(function (k) {
        state.audit[k] = progress[k];
      });
    }
    renderProgress();
  }

  function renderProgress() {
    var p = progress || { total_assets: 0, scanned_count: 0, missing_count: 0, unexpected_count: 0, completion_percentage: 0 };
    var pct = Math.max(0, Math.min(100, p.completion_percentage));
    setText(el.countTotal, fmtInt(p.total_assets));
    setText(el.countScanned, fmtInt(p.scanned_count));
    setText(el.countMissing, fmtInt(p.missing_count));
    setText(el.countUnexpected, fmtInt(p.unexpected_count));
    setText(el.percent, fmtPercent(pct));
    el.progressBar.setAttribute('aria-valuenow', fmtPercent(pct));
    el.progressBar.setAttribute('aria-valuetext', fmtPercent(pct) + '% complete: ' + fmtInt(p.scanned_count) + ' of ' +
      fmtInt(p.total_assets) + ' scanned');
    el.progressFill.style.width = pct + '%';
  }

  // ---------------------------------------------------------------- outcomes

  function statusOf(ev) {
    if (ev.kind === 'rejected') return 'rejected';
    if (ev.status === 'pending') return 'awaiting';
    return STATUS[ev.status] && ev.status !== 'pending' && ev.status !== 'idle' && ev.status !== 'rejected' ? ev.status : 'unknown';
  }

  function reasonText(ev) {
    var reason = str(ev.reason);
    if (!reason || !REASONS[reason]) return '';
    var text = REASONS[reason];
    var asset = obj(ev.asset);
    if (reason === 'other_country' && asset && asset.country) text += ' (' + str(asset.country) + ')';
    return text;
  }

  function firstScanText(ev, verb) {
    var f = obj(ev.first_scan);
    if (!f) return '';
    var parts = [verb];
    if (f.user) parts.push('by ' + str(f.user));
    if (f.station) parts.push('at ' + str(f.station));
    var t = f.scanned_at ? fmtTime(f.scanned_at) : '';
    return parts.join(' ') + (t ? ', ' + t : '');
  }

  function assetName(ev) {
    var asset = obj(ev.asset);
    if (!asset) return '';
    var name = str(asset.name);
    if (asset.model && name.indexOf(str(asset.model)) < 0) name += (name ? ' \u00B7 ' : '') + str(asset.model);
    return name;
  }

  function recordOutcome(scanId, identifier, status) {
    var at = (performance.timeOrigin || Date.now() - performance.now()) + performance.now();
    hooks.lastOutcomeAt = at;
    hooks.outcomes.push({ scan_id: scanId || null, identifier: identifier === undefined ? null : identifier, status: status, at: at });
    if (hooks.outcomes.length > OUTCOME_LOG_LIMIT) hooks.outcomes.splice(0, hooks.outcomes.length - OUTCOME_LOG_LIMIT);
  }

  function markShown(scanId) {
    if (!scanId || shown.has(scanId)) return;
    shown.add(scanId);
    shownOrder.push(scanId);
    if (shownOrder.length > 2000) shown.delete(shownOrder.shift());
  }

  /** Puts one ScanEvent in the big outcome box, with its sound. */
  function showOutcome(ev, options) {
    options = options || {};
    var status = statusOf(ev);
    var look = STATUS[status];
    var identifier = ev.identifier === null || ev.identifier === undefined ? '' : str(ev.identifier);
    var name = assetName(ev);
    var info = '';
    if (status === 'already_scanned') info = firstScanText(ev, 'First scanned') || 'Scanned before in this audit';
    else if (status === 'unexpected') info = reasonText(ev) || 'Not expected in this audit';
    else if (status === 'unknown') info = firstScanText(ev, 'Already recorded') || 'No asset has this tag or serial number';
    else if (status === 'rejected') info = 'Nothing was stored for this scan.';
    else if (status === 'awaiting') info = 'Not in this station\u2019s copy: the server decides, and the outcome replaces this one.';
    var message = str(ev.message);
    if (ev.pending === true && status !== 'rejected') message += (message ? ' \u2014 ' : '') + 'Decided here; waiting to sync with the server.';

    el.outcome.setAttribute('data-status', status);
    el.outcome.setAttribute('data-scan-id', str(ev.scan_id));
    setText(el.outcomeSymbol, look.symbol);
    setText(el.outcomeTitle, look.title);
    setText(el.outcomeDetail, identifier ? (name ? identifier + ' \u2014 ' + name : identifier) : name);
    el.outcomeDetail.title = identifier;
    setText(el.outcomeInfo, info);
    setText(el.outcomeMessage, message);
    el.outcome.classList.remove('flash');
    void el.outcome.offsetWidth;
    el.outcome.classList.add('flash');
    outcomeSerial++;
    markShown(ev.scan_id);
    recordOutcome(ev.scan_id, ev.identifier === undefined ? null : ev.identifier, status);
    if (options.sound !== false) playSound(status);
  }

  function showPending(item, text) {
    el.outcome.setAttribute('data-status', 'pending');
    el.outcome.setAttribute('data-scan-id', item.scan_id);
    setText(el.outcomeSymbol, STATUS.pending.symbol);
    setText(el.outcomeTitle, STATUS.pending.title);
    setText(el.outcomeDetail, item.identifier);
    setText(el.outcomeInfo, 'Kept on this screen: it is recorded as soon as the kiosk answers.');
    setText(el.outcomeMessage, text || 'Keep scanning.');
  }

  function showIdle() {
    el.outcome.setAttribute('data-status', 'idle');
    el.outcome.removeAttribute('data-scan-id');
    setText(el.outcomeSymbol, STATUS.idle.symbol);
    setText(el.outcomeTitle, STATUS.idle.title);
    setText(el.outcomeDetail, 'Hold a tag up to the camera, or type or scan it below.');
    setText(el.outcomeInfo, '');
    setText(el.outcomeMessage, '');
  }

  /** A scan from the kiosk: a POST answer or a pushed `scan` event. */
  function handleScan(ev, fromPost) {
    ev = obj(ev);
    if (!ev) return;
    var audit = obj(state && state.audit);
    if (ev.kind !== 'rejected' && ev.audit_id && audit && ev.audit_id !== audit.id) return;
    if (ev.kind !== 'rejected' && ev.audit_id) applyProgress(ev.audit_id, ev.progress, false);
    mergeRecent([ev], false);
    if (ev.scan_id && shown.has(ev.scan_id)) {
      // The server decided a scan shown pending: its outcome replaces it where it is shown.
      if (screen === 'scan' && ev.status !== 'pending' && el.outcome.getAttribute('data-scan-id') === str(ev.scan_id)) showOutcome(ev, { sound: false });
      return;
    }
    if (screen === 'scan') {
      showOutcome(ev, { sound: fromPost ? fromPost.sound : true });
      scheduleLists(700);
    } else if (screen === 'start' && ev.kind === 'rejected') {
      startMessage('\u2716 ' + (ev.identifier ? str(ev.identifier) + ': ' : '') + str(ev.message));
    }
  }

  // ---------------------------------------------------------------- last scans

  function mergeRecent(events, replace) {
    if (replace) {
      var fromServer = events.filter(function (e) { return obj(e); });
      // Keep local refusals the kiosk never stored (413, 415, …) on top if they are newer.
      recent = fromServer.slice(0, RECENT_LIMIT);
    } else {
      events.forEach(function (ev) {
        if (!obj(ev)) return;
        if (ev.scan_id) {
          for (var i = 0; i < recent.length; i++) {
            if (recent[i].scan_id === ev.scan_id) { recent.splice(i, 1); break; }
          }
        }
        recent.unshift(ev);
      });
      if (recent.length > RECENT_LIMIT) recent.length = RECENT_LIMIT;
    }
    renderRecent();
  }

  function renderRecent() {
    var frag = document.createDocumentFragment();
    recent.forEach(function (ev) {
      var status = statusOf(ev);
      var look = STATUS[status];
      var li = make('li');
      li.setAttribute('data-status', status);
      if (ev.scan_id) li.setAttribute('data-scan-id', str(ev.scan_id));
      li.appendChild(make('span', 'chip', look.symbol + ' ' + look.word)).setAttribute('data-status', status);
      var id = make('span', 'r-id', str(ev.identifier));
      id.title = str(ev.identifier);
      li.appendChild(id);
      var name = assetName(ev);
      if (status === 'unexpected' && reasonText(ev)) name = (name ? name + ' \u2014 ' : '') + reasonText(ev);
      if (status === 'rejected') name = str(ev.message);
      li.appendChild(make('span', 'r-name', name));
      var meta = [];
      if (ev.user) meta.push(str(ev.user));
      if (ev.at) meta.push(fmtTime(ev.at));
      if (ev.source === 'camera') meta.push('camera');
      if (ev.pending === true) meta.push('to sync');
      li.appendChild(make('span', 'r-meta', meta.join(' \u00B7 ')));
      frag.appendChild(li);
    });
    el.recent.textContent = '';
    el.recent.appendChild(frag);
    el.recentEmpty.hidden = recent.length > 0;
  }

  // ---------------------------------------------------------------- missing / unexpected lists

  var lists = {
    missing: { seq: 0, timer: null, busy: false, again: false },
    unexpected: { seq: 0, timer: null, busy: false, again: false }
  };

  function clearLists() {
    ['missing', 'unexpected'].forEach(function (name) {
      $(name + '-list').textContent = '';
      setText($(name + '-total'), '');
      setText($(name + '-note'), '');
    });
  }

  function scheduleLists(delay) {
    scheduleList('missing', delay);
    scheduleList('unexpected', delay);
  }

  function scheduleList(name, delay) {
    var l = lists[name];
    clearTimeout(l.timer);
    l.timer = setTimeout(function () { loadList(name); }, delay || 0);
  }

  function loadList(name) {
    var l = lists[name];
    var audit = obj(state && state.audit);
    if (screen !== 'scan' || !audit) return;
    if (l.busy) { l.again = true; return; }
    l.busy = true;
    l.again = false;
    var search = $(name + '-search').value.trim();
    var seq = ++l.seq;
    var url = '/api/details/' + name + '?audit_id=' + encodeURIComponent(audit.id) +
      '&search=' + encodeURIComponent(search) + '&per_page=' + LIST_PER_PAGE;
    var done = function () {
      l.busy = false;
      if (l.again) scheduleList(name, 200);
    };
    api('GET', url, null, 15000).then(function (res) {
      done();
      if (seq !== l.seq || screen !== 'scan') return;
      if (res.ok && obj(res.data)) renderList(name, res.data, search);
      else listUnavailable(name, errorMessage(res, 'The list could not be loaded'));
    }, function () {
      done();
      if (seq !== l.seq) return;
      listUnavailable(name, 'The list could not be loaded: the kiosk service is not responding.');
    });
  }

  function assetItem(a, name) {
    var li = make('li');
    var line = make('div', 'a-line');
    var ident = str(a.asset_tag || a.identifier);
    var id = make('span', 'a-id', ident);
    id.title = ident;
    line.appendChild(id);
    line.appendChild(make('span', 'a-name', a.name ? str(a.name) : (name === 'unexpected' ? 'Unknown tag' : '')));
    li.appendChild(line);
    var meta = [];
    if (name === 'unexpected') {
      var reason = str(a.reason);
      var text = REASONS[reason] || '';
      if (reason === 'other_country' && a.country) text += ' (' + str(a.country) + ')';
      if (text) meta.push(text);
      if (a.user) meta.push('by ' + str(a.user));
      if (a.first_scanned_at) meta.push(fmtTime(a.first_scanned_at));
    } else {
      if (a.model) meta.push(str(a.model));
      if (a.location) meta.push(str(a.location));
      if (a.serial_num && a.serial_num !== a.asset_tag) meta.push('S/N ' + str(a.serial_num));
    }
    if (meta.length) li.appendChild(make('div', 'a-meta', meta.join(' \u00B7 ')));
    return li;
  }

  // An old list would be wrong (scans went on meanwhile): show none, the count the audit's
  // numbers give, and why.
  function listUnavailable(name, why) {
    var audit = obj(state && state.audit) || {};
    var count = name === 'missing' ? audit.missing_count : audit.unexpected_count;
    $(name + '-list').textContent = '';
    setText($(name + '-total'), count === undefined ? '' : '(' + fmtInt(num(count)) + ')');
    setText($(name + '-note'), '\u26A0 ' + why);
  }

  function renderList(name, data, search) {
    var assets = arr(data.assets);
    var pag = obj(data.pagination) || {};
    var total = pag.total === undefined ? assets.length : num(pag.total);
    var listEl = $(name + '-list');
    var frag = document.createDocumentFragment();
    assets.forEach(function (a) { if (obj(a)) frag.appendChild(assetItem(a, name)); });
    listEl.textContent = '';
    listEl.appendChild(frag);
    setText($(name + '-total'), search ? '(' + fmtInt(total) + ' matching)' : '(' + fmtInt(total) + ')');
    var note = '';
    if (total === 0) note = search ? 'Nothing matches \u201C' + search + '\u201D.' : (name === 'missing' ? 'Nothing missing.' : 'Nothing unexpected so far.');
    else if (total > assets.length) note = 'Showing ' + fmtInt(assets.length) + ' of ' + fmtInt(total) + ': search to narrow it down.';
    setText($(name + '-note'), note);
  }

  // ---------------------------------------------------------------- the scan queue

  var queue = loadQueue();
  var inFlight = new Set();
  var retryTimer = null;
  var failures = 0;

  function loadQueue() {
    var raw = parseJSON(storageGet(QUEUE_KEY) || '[]');
    return arr(raw).filter(function (i) { return obj(i) && typeof i.identifier === 'string' && typeof i.scan_id === 'string'; });
  }

  function saveQueue() { storageSet(QUEUE_KEY, JSON.stringify(queue)); }

  function removeFromQueue(scanId) {
    // Other tabs may have changed the queue: start from what is stored.
    var stored = loadQueue();
    var known = new Set(queue.map(function (i) { return i.scan_id; }));
    stored.forEach(function (i) { if (!known.has(i.scan_id)) queue.push(i); });
    queue = queue.filter(function (i) { return i.scan_id !== scanId; });
    saveQueue();
    renderSending();
  }

  function renderSending() {
    var n = queue.length;
    setText(el.sending, n === 0 ? '' : (n === 1 ? '1 scan sending\u2026' : n + ' scans sending\u2026'));
  }

  function submitEntry() {
    var identifier = el.entry.value.trim();
    el.entry.value = '';
    if (!identifier) return;
    var item = { identifier: identifier, scan_id: newScanId(), queued_at: Date.now() };
    queue.push(item);
    saveQueue();               // kept before anything is sent
    lastLocalScanId = item.scan_id;
    renderSending();
    ensureAudio();
    send(item, true);
    pump();
  }

  /** Sends every queued scan that is not on its way yet. */
  function pump() {
    // After a failure, one at a time and oldest first, so the outcomes come back in order.
    var limit = failures > 0 ? 1 : MAX_IN_FLIGHT;
    for (var i = 0; i < queue.length && inFlight.size < limit; i++) {
      if (!inFlight.has(queue[i].scan_id)) send(queue[i], false);
    }
  }

  function send(item, fresh) {
    if (inFlight.has(item.scan_id)) return;
    if (inFlight.size >= MAX_IN_FLIGHT && !fresh) return;
    inFlight.add(item.scan_id);
    var serialAtSend = outcomeSerial;
    var pendingTimer = setTimeout(function () {
      if (item.scan_id === lastLocalScanId && outcomeSerial === serialAtSend && !shown.has(item.scan_id) && screen === 'scan') {
        showPending(item, 'Waiting for the kiosk\u2026');
      }
    }, 400);
    api('POST', '/api/scan', { identifier: item.identifier, scan_id: item.scan_id }, SCAN_TIMEOUT_MS).then(function (res) {
      clearTimeout(pendingTimer);
      inFlight.delete(item.scan_id);
      var s = res.status;
      if (s >= 200 && s < 300) {
        failures = 0;
        removeFromQueue(item.scan_id);
        var ev = obj(res.data) || { kind: 'result', status: 'unknown', message: '' };
        if (!ev.scan_id) ev.scan_id = item.scan_id;
        if (ev.identifier === undefined || ev.identifier === null) ev.identifier = item.identifier;
        handleScan(ev, { sound: Date.now() - num(item.queued_at) < 10000 });
        pump();
      } else if (s === 401 || s === 408 || s === 429 || s >= 500) {
        // Not decided: keep it and try again (after the PIN, or when the store is back).
        failed(item, errorMessage(res, 'The kiosk could not record it yet'));
      } else {
        failures = 0;
        removeFromQueue(item.scan_id);
        var d = obj(res.data) || {};
        handleScan({
          kind: 'rejected', scan_id: item.scan_id, identifier: item.identifier,
          error: str(d.error || ('HTTP_' + s)), message: errorMessage(res, 'The kiosk refused this scan'),
          source: 'manual', user: state && state.user, at: new Date().toISOString()
        }, { sound: true });
        if (d.error === 'AUDIT_ENDED' || d.error === 'NO_ACTIVE_AUDIT') loadState();
        pump();
      }
    }, function () {
      clearTimeout(pendingTimer);
      inFlight.delete(item.scan_id);
      failed(item, 'The kiosk service is not responding.');
    });
  }

  function failed(item, message) {
    failures++;
    if (item.scan_id === lastLocalScanId && !shown.has(item.scan_id) && screen === 'scan') showPending(item, message);
    if (!retryTimer) {
      var delay = Math.min(10000, 500 * Math.pow(2, Math.min(failures - 1, 5)));
      retryTimer = setTimeout(function () { retryTimer = null; pump(); }, delay);
    }
  }

  // ---------------------------------------------------------------- focus: the entry field keeps it

  var idleTimer = null;

  function dialogOpen() { return el.confirmDialog.open || el.userDialog.open; }

  function focusEntry() {
    if (screen !== 'scan' || dialogOpen()) return;
    if (document.activeElement !== el.entry) {
      try { el.entry.focus({ preventScroll: true }); } catch (e) { el.entry.focus(); }
    }
  }

  function isTextField(node) {
    if (!node || !node.tagName) return false;
    var tag = node.tagName;
    if (tag === 'TEXTAREA' || tag === 'SELECT' || node.isContentEditable) return true;
    if (tag !== 'INPUT') return false;
    var type = (node.getAttribute('type') || 'text').toLowerCase();
    return ['text', 'search', 'password', 'number', 'email', 'tel', 'url'].indexOf(type) >= 0;
  }

  function isControl(node) {
    if (!node || node === document.body || !node.tagName) return false;
    return /^(INPUT|BUTTON|SELECT|TEXTAREA|A)$/.test(node.tagName);
  }

  /** Focus on another control (a search box, a button) is allowed, but comes back to the entry
   *  field once the person stops using it. */
  function armIdleReturn() {
    clearTimeout(idleTimer);
    if (screen !== 'scan') return;
    var active = document.activeElement;
    if (active === el.entry || dialogOpen()) return;
    var wait = isTextField(active) ? 20000 : 6000;
    idleTimer = setTimeout(function () {
      if (screen === 'scan' && !dialogOpen() && document.activeElement !== el.entry) focusEntry();
    }, wait);
  }

  function onEntryBlur(e) {
    if (screen !== 'scan') return;
    var to = e.relatedTarget;
    if (to && isControl(to)) { armIdleReturn(); return; }
    setTimeout(function () {
      var active = document.activeElement;
      if (screen === 'scan' && !dialogOpen() && (!active || active === document.body || !isControl(active))) focusEntry();
    }, 0);
  }

  function isPrintable(e) {
    return e.key && e.key.length === 1 && !e.ctrlKey && !e.metaKey && !(e.altKey && !e.getModifierState('AltGraph'));
  }

  function onKeyDown(e) {
    ensureAudio();
    if (screen !== 'scan') return;
    var active = document.activeElement;
    if (el.confirmDialog.open) {
      // A tag scanned while the end confirmation is open: keep scanning, and keep the tag.
      if (isPrintable(e) && e.key !== ' ') {
        e.preventDefault();
        closeDialog(el.confirmDialog);
        focusEntry();
        el.entry.value += e.key;
      }
      return;
    }
    if (dialogOpen() || active === el.entry) return;
    if (isTextField(active)) { armIdleReturn(); return; }
    if (isPrintable(e) && e.key !== ' ') {
      // A barcode gun typing while a button has the focus: the characters go to the entry field.
      e.preventDefault();
      focusEntry();
      el.entry.value += e.key;
      return;
    }
    armIdleReturn();
  }

  // ---------------------------------------------------------------- dialogs

  var dialogOpener = null;

  function openDialog(dialog, focusNode) {
    if (dialog.open) return;
    dialogOpener = document.activeElement;
    clearTimeout(idleTimer);
    try { dialog.showModal(); } catch (e) { dialog.setAttribute('open', ''); }
    if (focusNode) focusNode.focus();
  }

  function closeDialog(dialog) {
    if (!dialog || !dialog.open) return;
    try { dialog.close(); } catch (e) { dialog.removeAttribute('open'); }
  }

  function onDialogClosed() {
    if (screen === 'scan') {
      dialogOpener = null;
      setTimeout(focusEntry, 0);
    } else if (dialogOpener && dialogOpener.focus && document.contains(dialogOpener)) {
      dialogOpener.focus();
    }
  }

  /** Tab and Shift+Tab stay inside an open dialog. */
  function trapTab(e) {
    if (e.key !== 'Tab') return;
    var dialog = e.currentTarget;
    var nodes = Array.prototype.filter.call(dialog.querySelectorAll('button, input, a[href]'), function (n) {
      return !n.disabled && n.offsetParent !== null;
    });
    if (!nodes.length) return;
    var first = nodes[0], last = nodes[nodes.length - 1];
    if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  }

  function openConfirm() {
    var audit = obj(state && state.audit);
    if (!audit) return;
    var p = progress || {};
    setText(el.confirmTitle, 'End the audit of ' + str(audit.country) + '?');
    setText(el.confirmText, fmtInt(p.scanned_count) + ' of ' + fmtInt(p.total_assets) + ' expected assets scanned, ' +
      fmtInt(p.missing_count) + ' missing, ' + fmtInt(p.unexpected_count) + ' unexpected.');
    setText(el.confirmError, '');
    el.confirmYes.disabled = false;
    el.confirmNo.disabled = false;
    openDialog(el.confirmDialog, el.confirmNo);
  }

  function confirmEnd() {
    var audit = obj(state && state.audit);
    if (!audit) { closeDialog(el.confirmDialog); return; }
    el.confirmYes.disabled = true;
    setText(el.confirmError, '');
    setText(el.confirmYes, 'Ending\u2026');
    api('POST', '/api/end', { audit_id: audit.id }, 60000).then(function (res) {
      el.confirmYes.disabled = false;
      setText(el.confirmYes, 'End audit');
      var s = obj(res.data) && obj(res.data.summary);
      if (res.ok && s && obj(s.audit)) {
        summary = s;
        closeDialog(el.confirmDialog);
        if (state) state.audit = s.audit;
        showScreen('summary');
        renderTopbar();
        renderSummary();
        el.backToStart.focus();
      } else {
        setText(el.confirmError, '\u2716 ' + errorMessage(res, 'The audit was not ended'));
        el.confirmNo.focus();
        if (res.status === 409) loadState();
      }
    }, function () {
      el.confirmYes.disabled = false;
      setText(el.confirmYes, 'End audit');
      setText(el.confirmError, '\u2716 The kiosk service is not responding; the audit was not ended. Try again.');
    });
  }

  function openUserDialog() {
    el.userDialogName.value = str(state && state.user);
    setText(el.userDialogError, '');
    openDialog(el.userDialog, el.userDialogName);
    el.userDialogName.select();
  }

  function submitUserDialog(e) {
    e.preventDefault();
    var name = el.userDialogName.value.trim();
    if (!name) { setText(el.userDialogError, 'Type who is scanning.'); return; }
    el.userDialogSave.disabled = true;
    saveUser(name, el.userDialogError).then(function (ok) {
      el.userDialogSave.disabled = false;
      if (ok) closeDialog(el.userDialog);
    });
  }

  function leave() {
    var buttons = [el.leaveButton, el.backToStart];
    buttons.forEach(function (b) { b.disabled = true; });
    api('POST', '/api/leave', {}, 15000).then(function (res) {
      buttons.forEach(function (b) { b.disabled = false; });
      if (res.ok) {
        summary = null;
        if (state) state.audit = null;
        showIdle();
        loadState();
      } else if (screen === 'summary') {
        showSummaryError(errorMessage(res, 'Could not go back to the start'));
      }
    }, function () {
      buttons.forEach(function (b) { b.disabled = false; });
      if (screen === 'summary') showSummaryError('The kiosk service is not responding. Try again in a moment.');
    });
  }

  // ---------------------------------------------------------------- summary

  function showSummaryError(text) {
    el.summaryError.hidden = !text;
    setText(el.summaryError, text ? '\u26A0 ' + text : '');
  }

  function ensureSummary(audit) {
    if (summary && obj(summary.audit) && summary.audit.id === audit.id) { renderSummary(); return; }
    summary = { audit: audit, duration_seconds: null, missing: null, unexpected: null };
    renderSummary();
    if (summaryLoading === audit.id) return;
    summaryLoading = audit.id;
    api('GET', '/api/summary?audit_id=' + encodeURIComponent(audit.id), null, 30000).then(function (res) {
      summaryLoading = null;
      var s = obj(res.data) && obj(res.data.summary);
      if (res.ok && s && obj(s.audit)) {
        if (screen === 'summary' && summary && summary.audit && summary.audit.id === s.audit.id) {
          summary = s;
          showSummaryError('');
          renderSummary();
        }
      } else {
        showSummaryError(errorMessage(res, 'The summary could not be loaded'));
      }
    }, function () {
      summaryLoading = null;
      showSummaryError('The summary could not be loaded: the kiosk service is not responding.');
    });
  }

  function renderSummary() {
    var s = summary || {};
    var a = obj(s.audit) || {};
    setText(el.summaryHeading, (a.is_active === false ? 'Audit of ' : 'Running audit of ') + str(a.country) + (a.is_active === false ? ' ended' : ''));
    setText(el.summaryTotal, fmtInt(a.total_assets));
    setText(el.summaryScanned, fmtInt(a.scanned_count));
    setText(el.summaryMissing, fmtInt(a.missing_count));
    setText(el.summaryUnexpected, fmtInt(a.unexpected_count));
    setText(el.summaryPercent, fmtPercent(a.completion_percentage));
    var seconds = s.duration_seconds;
    if (seconds === null || seconds === undefined) {
      var st = parseTime(a.started_at), en = parseTime(a.ended_at);
      seconds = st && en ? (en - st) / 1000 : null;
    }
    setText(el.summaryDuration, seconds === null ? '\u2013' : fmtDuration(seconds));
    el.summaryTimes.textContent = '';
    var addPart = function (label, who, when) {
      if (!who && !when) return;
      if (el.summaryTimes.childNodes.length) el.summaryTimes.appendChild(document.createTextNode(' \u00B7 '));
      el.summaryTimes.appendChild(document.createTextNode(label + ' '));
      if (when) el.summaryTimes.appendChild(make('strong', null, fmtTime(when)));
      if (who) {
        el.summaryTimes.appendChild(document.createTextNode(' by '));
        el.summaryTimes.appendChild(make('strong', null, str(who)));
      }
    };
    addPart('Started', a.started_by, a.started_at);
    addPart('Ended', a.ended_by, a.ended_at);
    var id = encodeURIComponent(str(a.id));
    el.downloadCsv.href = '/api/report?audit_id=' + id + '&format=csv';
    el.downloadJson.href = '/api/report?audit_id=' + id + '&format=json';
    el.downloadCsv.setAttribute('download', 'audit-' + str(a.country) + '-' + str(a.id).slice(0, 8) + '.csv');
    el.downloadJson.setAttribute('download', 'audit-' + str(a.country) + '-' + str(a.id).slice(0, 8) + '.json');
    summaryList('missing', s.missing, s.missing_total !== undefined ? s.missing_total : a.missing_count);
    summaryList('unexpected', s.unexpected, s.unexpected_total !== undefined ? s.unexpected_total : a.unexpected_count);
  }

  function summaryList(name, items, total) {
    var listEl = $('summary-' + name + '-list');
    var note = $('summary-' + name + '-note');
    listEl.textContent = '';
    if (items === null || items === undefined) {
      setText($('summary-' + name + '-count'), '');
      setText(note, 'Loading\u2026');
      return;
    }
    var list = arr(items);
    var frag = document.createDocumentFragment();
    list.forEach(function (a) { if (obj(a)) frag.appendChild(assetItem(a, name)); });
    listEl.appendChild(frag);
    var count = Math.max(num(total), list.length);
    setText($('summary-' + name + '-count'), '(' + fmtInt(count) + ')');
    if (list.length === 0) setText(note, name === 'missing' ? 'Nothing is missing.' : 'Nothing unexpected was scanned.');
    else if (count > list.length) setText(note, 'Showing ' + fmtInt(list.length) + ' of ' + fmtInt(count) + '; the reports list every one.');
    else setText(note, '');
  }

  // ---------------------------------------------------------------- camera preview and outlines

  var previewActive = false;
  var previewRetry = null;
  var lastCameraState = null;
  var outlineTimer = null;
  var lastOutlines = null;

  function renderCamera() {
    var cam = obj(state && state.camera) || {};
    var st = ['none', 'starting', 'ready', 'lost'].indexOf(cam.state) >= 0 ? cam.state : 'none';
    el.previewBox.setAttribute('data-camera', st);
    var headline = st === 'starting' ? 'Camera starting\u2026'
      : st === 'lost' ? 'Camera not working'
        : st === 'ready' ? 'Connecting to the camera\u2026' : 'No camera';
    setText(el.cameraHeadline, headline);
    setText(el.cameraMessage, st === 'ready' ? '' : str(cam.message));
    var want = screen === 'scan' && (st === 'ready' || st === 'starting');
    if (!want) stopPreview();
    else if (st === 'ready' && (lastCameraState !== 'ready' || !previewActive)) startPreview();
    else if (!previewActive) startPreview();
    lastCameraState = st;
  }

  var previewWatch = null;

  function startPreview() {
    clearTimeout(previewRetry);
    previewActive = true;
    el.previewBox.setAttribute('data-loaded', 'false');
    el.preview.src = '/api/preview.mjpg?t=' + Date.now();
    // A multipart stream does not always fire `load`: watch for the first frame too.
    clearInterval(previewWatch);
    previewWatch = setInterval(function () {
      if (!previewActive) { clearInterval(previewWatch); return; }
      if (el.preview.naturalWidth > 0) { clearInterval(previewWatch); onPreviewLoad(); }
    }, 300);
  }

  function stopPreview() {
    clearTimeout(previewRetry);
    if (previewActive || el.preview.getAttribute('src')) {
      previewActive = false;
      el.preview.removeAttribute('src');
      el.previewBox.setAttribute('data-loaded', 'false');
    }
  }

  function onPreviewLoad() {
    if (!previewActive) return;
    el.previewBox.setAttribute('data-loaded', 'true');
    placeOutlines();
  }

  function onPreviewError() {
    if (!previewActive) return;
    previewActive = false;
    el.previewBox.setAttribute('data-loaded', 'false');
    clearTimeout(previewRetry);
    previewRetry = setTimeout(function () {
      var cam = obj(state && state.camera) || {};
      if (screen === 'scan' && (cam.state === 'ready' || cam.state === 'starting')) startPreview();
    }, 5000);
  }

  /** The SVG covers exactly the part of the box the picture is drawn in (object-fit: contain). */
  function placeOutlines() {
    var box = el.previewBox;
    var bw = box.clientWidth, bh = box.clientHeight;
    var cam = obj(state && state.camera) || {};
    var nw = el.preview.naturalWidth || num(cam.width) || (lastOutlines && num(lastOutlines.width)) || 16;
    var nh = el.preview.naturalHeight || num(cam.height) || (lastOutlines && num(lastOutlines.height)) || 9;
    if (!bw || !bh || !nw || !nh) return;
    var scale = Math.min(bw / nw, bh / nh);
    var w = nw * scale, h = nh * scale;
    el.outlines.style.left = ((bw - w) / 2) + 'px';
    el.outlines.style.top = ((bh - h) / 2) + 'px';
    el.outlines.style.width = w + 'px';
    el.outlines.style.height = h + 'px';
  }

  function clearOutlines() {
    clearTimeout(outlineTimer);
    while (el.outlines.firstChild) el.outlines.removeChild(el.outlines.firstChild);
  }

  function drawOutlines(data) {
    data = obj(data);
    if (!data || screen !== 'scan') return;
    var codes = arr(data.codes);
    clearOutlines();
    if (!codes.length) return;
    var w = num(data.width), h = num(data.height);
    if (!(w > 0 && h > 0)) return;
    lastOutlines = data;
    el.outlines.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    placeOutlines();
    var ns = 'http://www.w3.org/2000/svg';
    codes.forEach(function (code) {
      code = obj(code);
      if (!code) return;
      var pts = arr(code.points).filter(obj).map(function (p) { return num(p.x) + ',' + num(p.y); });
      if (!pts.length) return;
      var poly = document.createElementNS(ns, 'polygon');
      poly.setAttribute('points', pts.join(' '));
      el.outlines.appendChild(poly);
      if (code.text) {
        var first = obj(arr(code.points)[0]) || { x: 0, y: 0 };
        var minY = Math.min.apply(null, arr(code.points).filter(obj).map(function (p) { return num(p.y); }));
        var label = document.createElementNS(ns, 'text');
        label.setAttribute('x', String(num(first.x)));
        label.setAttribute('y', String(Math.max(24, minY - 10)));
        label.setAttribute('font-size', String(Math.max(16, Math.round(h / 22))));
        label.textContent = str(code.text).slice(0, 60);
        el.outlines.appendChild(label);
      }
    });
    outlineTimer = setTimeout(clearOutlines, OUTLINE_CLEAR_MS);
  }

  // ---------------------------------------------------------------- pushed events

  var events = null;
  var eventsRetry = null;
  var lostTimer = null;
  var eventsFailed = false;

  function openEvents() {
    if (events || !window.EventSource) return;
    clearTimeout(eventsRetry);
    var es;
    try { es = new EventSource('/api/events'); } catch (e) { eventsRetry = setTimeout(openEvents, 3000); return; }
    events = es;
    es.addEventListener('open', function () {
      if (events !== es) return;
      clearTimeout(lostTimer);
      lostTimer = null;
      setServiceLost(false);
      if (eventsFailed) {
        eventsFailed = false;
        // The kiosk may have restarted: the preview stream is gone too. The state event that
        // opens the stream starts it again.
        stopPreview();
        loadState();
        pump();
      }
    });
    es.addEventListener('error', function () {
      if (events !== es) return;
      eventsFailed = true;
      if (!lostTimer) lostTimer = setTimeout(function () { lostTimer = null; setServiceLost(true); }, 3000);
      if (es.readyState === 2) {
        // The browser gave up (the kiosk answered with an error): start again ourselves.
        es.close();
        events = null;
        eventsRetry = setTimeout(function () { loadState(); openEvents(); }, 3000);
      }
    });
    es.addEventListener('state', function (e) { var d = parseJSON(e.data); if (d) applyState(d); });
    es.addEventListener('scan', function (e) { var d = parseJSON(e.data); if (d) handleScan(d, null); });
    es.addEventListener('progress', function (e) {
      var d = obj(parseJSON(e.data));
      if (!d) return;
      var audit = obj(state && state.audit);
      if (audit && d.audit_id === audit.id) {
        applyProgress(d.audit_id, d.progress, false);
        if (screen === 'scan') scheduleLists(700);
      }
    });
    es.addEventListener('outlines', function (e) { drawOutlines(parseJSON(e.data)); });
  }

  function closeEvents() {
    clearTimeout(eventsRetry);
    if (events) { events.close(); events = null; }
    clearTimeout(lostTimer);
    lostTimer = null;
    setServiceLost(false);
  }

  function setServiceLost(lost) {
    el.serviceStatus.hidden = !lost;
    document.body.setAttribute('data-service', lost ? 'lost' : 'ok');
  }

  // ---------------------------------------------------------------- sounds (Web Audio, made here)

  var audio = null;
  var muted = storageGet(MUTE_KEY) === '1';

  function ensureAudio() {
    try {
      if (!audio) {
        var AC = window.AudioContext || window.webkitAudioContext;
        if (!AC) return null;
        audio = new AC();
      }
      if (audio.state === 'suspended' && audio.resume) {
        var p = audio.resume();
        if (p && p.catch) p.catch(function () {});
      }
      return audio;
    } catch (e) {
      audio = null;
      return null;
    }
  }

  function tone(ctx, start, duration, freq, type, volume, freqEnd) {
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, start);
    if (freqEnd) osc.frequency.linearRampToValueAtTime(freqEnd, start + duration);
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(volume, start + 0.012);
    gain.gain.setValueAtTime(volume, start + Math.max(0.015, duration - 0.03));
    gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(start);
    osc.stop(start + duration + 0.02);
    return osc;
  }

  function playSound(status) {
    if (muted) return;
    try {
      var ctx = ensureAudio();
      if (!ctx || ctx.state === 'closed') return;
      var t = ctx.currentTime + 0.01;
      switch (status) {
        case 'found_expected':       // short, bright, rising two-tone
          tone(ctx, t, 0.08, 988, 'sine', 0.35);
          tone(ctx, t + 0.085, 0.13, 1480, 'sine', 0.35);
          break;
        case 'already_scanned':      // neutral double low blip
          tone(ctx, t, 0.07, 440, 'triangle', 0.4);
          tone(ctx, t + 0.14, 0.07, 440, 'triangle', 0.4);
          break;
        case 'unexpected': {         // warbling alert
          var osc = tone(ctx, t, 0.62, 880, 'square', 0.18);
          for (var i = 1; i < 8; i++) osc.frequency.setValueAtTime(i % 2 ? 620 : 880, t + i * 0.078);
          break;
        }
        case 'unknown':
        case 'rejected':             // low buzz
          tone(ctx, t, 0.38, 130, 'sawtooth', 0.22);
          tone(ctx, t, 0.38, 137, 'square', 0.08);
          break;
        default:
          break;
      }
    } catch (e) { /* no sound is better than a broken page */ }
  }

  function renderMute() {
    el.mute.setAttribute('aria-pressed', muted ? 'true' : 'false');
    setText(el.mute, muted ? 'Sound: off' : 'Sound: on');
    el.mute.title = muted ? 'Turn the sounds back on' : 'Mute the sounds';
  }

  // ---------------------------------------------------------------- wiring

  function bind() {
    [
      'service-status', 'topbar', 'station-name', 'audit-label', 'scanner-label', 'connection', 'pending', 'last-sync',
      'scan-controls', 'change-user', 'mute', 'leave-button', 'end-button', 'loading-message', 'pin-station', 'pin-form',
      'pin', 'pin-submit', 'pin-error', 'start-station', 'user-name', 'user-save', 'user-status', 'start-message', 'countries-error',
      'countries', 'countries-empty', 'outcome', 'outcome-symbol', 'outcome-title', 'outcome-detail', 'outcome-info',
      'outcome-message', 'entry', 'sending', 'preview-box', 'preview', 'outlines', 'camera-status', 'camera-headline',
      'camera-message', 'percent', 'audit-country', 'progress-bar', 'progress-fill', 'count-total', 'count-scanned',
      'count-missing', 'count-unexpected', 'recent', 'recent-empty', 'missing-search', 'unexpected-search',
      'summary-heading', 'summary-times', 'download-csv', 'download-json', 'back-to-start', 'summary-error',
      'summary-total', 'summary-scanned', 'summary-missing', 'summary-unexpected', 'summary-percent', 'summary-duration',
      'confirm-dialog', 'confirm-title', 'confirm-text', 'confirm-error', 'confirm-no', 'confirm-yes', 'user-dialog',
      'user-dialog-form', 'user-dialog-name', 'user-dialog-error', 'user-dialog-cancel', 'user-dialog-save'
    ].forEach(function (id) {
      el[id.replace(/-([a-z])/g, function (m, c) { return c.toUpperCase(); })] = $(id);
    });

    el.pinForm.addEventListener('submit', submitPin);

    el.userName.addEventListener('change', function () { saveUser(el.userName.value, el.userStatus); });
    el.userName.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && !e.isComposing) { e.preventDefault(); saveUser(el.userName.value, el.userStatus); }
    });
    el.userSave.addEventListener('click', function () { saveUser(el.userName.value, el.userStatus); });
    el.countries.addEventListener('click', onCountryClick);

    el.entry.addEventListener('keydown', function (e) {
      if (e.isComposing) return;
      // Enter ends a tag; so does Tab after text (some barcode guns are set up to send Tab).
      if (e.key === 'Enter' || (e.key === 'Tab' && !e.shiftKey && el.entry.value.trim())) {
        e.preventDefault();
        submitEntry();
      }
    });
    el.entry.addEventListener('blur', onEntryBlur);
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('pointerdown', function () { ensureAudio(); armIdleReturn(); }, true);
    document.addEventListener('focusin', function () { if (screen === 'scan') armIdleReturn(); });
    window.addEventListener('focus', function () { setTimeout(focusEntry, 0); });

    ['missing', 'unexpected'].forEach(function (name) {
      var input = $(name + '-search');
      var burst = '', lastKey = 0;
      input.addEventListener('input', function () { scheduleList(name, 250); armIdleReturn(); });
      input.addEventListener('keydown', function (e) {
        var t = performance.now();
        if (e.key === 'Enter') {
          e.preventDefault();
          // A barcode gun types far faster than a person: a burst of 4+ characters ending in
          // Enter is a scan that landed in the search box. It goes to the entry field instead.
          if (burst.length >= 4 && t - lastKey < 100 && input.value.slice(-burst.length) === burst) {
            input.value = input.value.slice(0, -burst.length);
            scheduleList(name, 0);
            focusEntry();
            el.entry.value = burst;
            burst = '';
            submitEntry();
            return;
          }
          burst = '';
          scheduleList(name, 0);
        } else if (e.key === 'Escape') {
          e.preventDefault();
          burst = '';
          if (input.value) { input.value = ''; scheduleList(name, 0); } else focusEntry();
        } else if (isPrintable(e)) {
          if (t - lastKey > 50) burst = '';
          burst += e.key;
          lastKey = t;
        } else if (e.key !== 'Shift') {
          burst = '';
        }
      });
    });

    var afterClick = function (e) { if (e.detail > 0) setTimeout(focusEntry, 0); };
    el.mute.addEventListener('click', function (e) {
      muted = !muted;
      storageSet(MUTE_KEY, muted ? '1' : '0');
      renderMute();
      if (!muted) { ensureAudio(); playSound('found_expected'); }
      afterClick(e);
    });
    el.changeUser.addEventListener('click', openUserDialog);
    el.leaveButton.addEventListener('click', leave);
    el.endButton.addEventListener('click', openConfirm);
    el.confirmNo.addEventListener('click', function () { closeDialog(el.confirmDialog); });
    el.confirmYes.addEventListener('click', confirmEnd);
    el.userDialogForm.addEventListener('submit', submitUserDialog);
    el.userDialogCancel.addEventListener('click', function () { closeDialog(el.userDialog); });
    [el.confirmDialog, el.userDialog].forEach(function (d) {
      d.addEventListener('keydown', trapTab);
      d.addEventListener('close', onDialogClosed);
      d.addEventListener('cancel', function () { /* Escape: the safe choice */ });
    });
    el.backToStart.addEventListener('click', leave);

    el.preview.addEventListener('load', onPreviewLoad);
    el.preview.addEventListener('error', onPreviewError);
    window.addEventListener('resize', placeOutlines);
    window.addEventListener('online', function () { pump(); });
    window.addEventListener('storage', function (e) {
      if (e.key === QUEUE_KEY) {
        var known = new Set(queue.map(function (i) { return i.scan_id; }));
        loadQueue().forEach(function (i) { if (!known.has(i.scan_id)) queue.push(i); });
        renderSending();
      }
    });
  }

  function init() {
    bind();
    renderMute();
    renderProgress();
    showIdle();
    renderSending();
    // Scans typed before a reload or a power cut that never got an answer are sent again as
    // soon as the state is in (applyState calls pump).
    loadState();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
