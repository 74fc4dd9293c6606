/* The public API, as any client calls it. The token lives in sessionStorage (never a cookie),
 * so a request from another site carries no credentials. */

import { readBody } from './format.js';
import { storedLogin } from './login.js';

const login = storedLogin('auditstation.office');
export const session = login.session, forget = login.forget, useKey = login.useKey;
const headers = login.headers;

export class APIError extends Error {
  constructor(status, body) {
    super((body && body.message) || ('HTTP ' + status));
    this.status = status;
    this.code = body && body.error;
    this.fields = (body && body.errors) || {};
    // What a refusal adds, such as STATIONS_OUT's {audit_id, stations}.
    this.data = (body && body.data) || null;
    // A duplicate names its field in `data`: {field, value}.
    if (this.code === 'DUPLICATE' && body.data && body.data.field) this.fields[body.data.field] = [this.message];
  }
}

/** A 401 to a signed-in page (the user was disabled, the token revoked or expired) forgets the
 * login and tells the page, which goes to the login screen and says why. */
function signedOut(response, json) {
  if (response.status !== 401 || !session()) return;
  forget();
  window.dispatchEvent(new CustomEvent('office:signed-out', { detail: (json && json.message) || 'HTTP 401' }));
}

/** Calls the API and answers the envelope's `data`; a refusal throws APIError. A 401 forgets the login. */
export async function call(method, path, body) {
  const init = { method: method, headers: headers(body ? { 'Content-Type': 'application/json' } : null), credentials: 'omit' };
  if (body) init.body = JSON.stringify(body);
  let response;
  try { response = await fetch(path, init); } catch (e) { throw new APIError(0, { message: 'The server cannot be reached' }); }
  // An answer cut off mid-way, or an OK that is not the server's JSON (a Wi-Fi network's
  // sign-in page), is no answer: said so, never taken for success.
  const { json, problem } = await readBody(response);
  if (problem === 'cut') throw new APIError(0, { message: 'The server\u2019s answer was cut off: reload to see whether this was saved' });
  if (!response.ok) {
    signedOut(response, json);
    throw new APIError(response.status, json);
  }
  if (problem === 'foreign') throw new APIError(0, { message: 'The answer did not come from the server (a Wi-Fi sign-in page?)' });
  return json && Object.prototype.hasOwnProperty.call(json, 'data') ? json.data : json;
}

export async function logIn(email, password) {
  const data = await call('POST', '/api/v1/auth/login', { email: email, password: password, device_name: 'back office' });
  login.save(data);
  return data.user;
}

export async function logOut() {
  try { await call('POST', '/api/v1/auth/logout'); } catch (e) { /* the token goes either way */ }
  forget();
}

/** A file answer (a report, a photo, labels) as a Blob, with the name the server gives it. */
export async function download(path, body) {
  const init = { headers: headers(body ? { 'Content-Type': 'application/json' } : null), credentials: 'omit' };
  if (body) { init.method = 'POST'; init.body = JSON.stringify(body); }
  const response = await fetch(path, init);
  if (!response.ok) {
    const { json } = await readBody(response);
    signedOut(response, json);
    throw new APIError(response.status, json);
  }
  const disposition = response.headers.get('Content-Disposition') || '';
  const match = /filename="?([^";]+)"?/.exec(disposition);
  // Labels that could not be made (a tag too long for its label) are named in a header.
  const refused = response.headers.get('X-Labels-Refused');
  let detail = response.headers.get('X-Labels-Refused-Detail') || '';
  try { detail = decodeURIComponent(detail); } catch (e) { /* shown as sent */ }
  return { blob: await response.blob(), name: match ? match[1] : 'download', refused: refused ? { count: parseInt(refused, 10), detail: detail } : null };
}

export function query(params) {
  const parts = [];
  Object.keys(params).forEach(function (k) {
    const v = params[k];
    if (v !== undefined && v !== null && v !== '') parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(v));
  });
  return parts.length ? '?' + parts.join('&') : '';
}
