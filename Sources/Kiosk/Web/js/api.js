/* One call to the kiosk: fetch with a deadline, the X-Kiosk header and a JSON body on POST, and
 * the error message of an answer. A PIN_REQUIRED answer sends the page back to the state. */

import { obj, parseJSON, str } from './format.js';
import { emit } from './bus.js';

/** One call to the kiosk. Resolves {status, ok, data, headers}; rejects only on a network error. */
export function api(method, path, body, timeoutMs) {
  const init = { method: method, headers: {}, credentials: 'same-origin', cache: 'no-store' };
  if (method === 'POST') {
    init.headers['Content-Type'] = 'application/json';
    init.headers['X-Kiosk'] = '1';
    init.body = JSON.stringify(body || {});
  }
  let timer = null;
  if (timeoutMs && window.AbortController) {
    const ctl = new AbortController();
    init.signal = ctl.signal;
    timer = setTimeout(function () { ctl.abort(); }, timeoutMs);
  }
  return fetch(path, init).then(function (res) {
    return res.text().then(function (text) {
      if (timer) clearTimeout(timer);
      const data = text ? parseJSON(text) : null;
      if (res.status === 401 && obj(data) && data.error === 'PIN_REQUIRED' && path !== '/api/state') {
        setTimeout(function () { emit('reload'); }, 0);
      }
      return { status: res.status, ok: res.ok, data: data, headers: res.headers };
    });
  }, function (err) {
    if (timer) clearTimeout(timer);
    throw err;
  });
}

export function errorMessage(res, fallback) {
  const d = obj(res && res.data);
  if (d && d.message) return str(d.message);
  if (res && res.status) return fallback + ' (HTTP ' + res.status + ')';
  return fallback;
}
