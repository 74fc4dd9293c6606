/* The server's public API, as the phone page calls it. The login lives in sessionStorage (never
 * a cookie), as on the back office. No call throws: each answers {ok, status, data, code,
 * message}, where status 0 means the server could not be reached (or did not answer in time). */

import { obj, readBody, str } from './format.js';
import { storedLogin } from './login.js';

const login = storedLogin('auditstation.scan');
export const session = login.session, forget = login.forget, useKey = login.useKey;
const headers = login.headers;

/** One call with a deadline. `body` is JSON, or a Blob sent with its own type. */
export async function call(method, path, body, timeoutMs) {
  const controller = new AbortController();
  const timer = setTimeout(function () { controller.abort(); }, timeoutMs || 10000);
  const blob = body instanceof Blob;
  const init = { method: method, credentials: 'omit', signal: controller.signal };
  init.headers = headers(body ? { 'Content-Type': blob ? body.type : 'application/json' } : null);
  if (body) init.body = blob ? body : JSON.stringify(body);
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    clearTimeout(timer);
    return { ok: false, status: 0, data: null, code: 'OFFLINE', message: 'The server cannot be reached' };
  }
  // An answer cut off mid-way, or one that is not the server's JSON although it says OK, is no
  // answer: the scan stays queued and is sent again with its scan_id, which the server answers
  // as it first did.
  const { json, problem } = await readBody(response);
  clearTimeout(timer);
  if (problem) {
    return {
      ok: false, status: 0, data: null, code: 'OFFLINE',
      message: problem === 'cut' ? 'The server\u2019s answer was cut off' : 'The answer did not come from the server (a Wi-Fi sign-in page?)'
    };
  }
  const answer = {
    ok: response.ok, status: response.status, data: json && 'data' in json ? json.data : json,
    code: json ? str(json.error) : '', message: json ? str(json.message) : '',
    retryAfter: Number(response.headers.get('Retry-After')) || 0
  };
  if (!answer.message) answer.message = 'The server answered ' + response.status;
  if (response.status === 401) forget();
  return answer;
}

export async function logIn(email, password, device) {
  const res = await call('POST', '/api/v1/auth/login', { email: email, password: password, device_name: device || 'phone' }, 15000);
  if (res.ok && obj(res.data) && res.data.token) {
    login.save(res.data);
  }
  return res;
}

export async function logOut() {
  await call('POST', '/api/v1/auth/logout', null, 5000);
  forget();
}
