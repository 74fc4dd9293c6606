/* A page's login, kept in sessionStorage (never a cookie, so a request from another site carries
 * no credentials) under the page's own name: the token and user the server answered at login, and
 * an API key typed beside them. The back office and the phone page each keep their own. */

import { obj, parseJSON } from './format.js';

export function storedLogin(name) {
  const keyName = name + '.key';
  /** The saved login ({token, user}), or null. */
  function session() { return obj(parseJSON(sessionStorage.getItem(name) || 'null')); }
  return {
    session: session,
    /** Keeps what a login answered. */
    save: function (data) { sessionStorage.setItem(name, JSON.stringify({ token: data.token, user: data.user })); },
    forget: function () { sessionStorage.removeItem(name); },
    /** The API key sent with every call (an empty one: none). */
    useKey: function (key) { if (key) sessionStorage.setItem(keyName, key); else sessionStorage.removeItem(keyName); },
    /** A call's headers: JSON answers, the login's token, the API key, and `extra`. */
    headers: function (extra) {
      const h = Object.assign({ Accept: 'application/json' }, extra || {});
      const s = session();
      if (s && s.token) h.Authorization = 'Bearer ' + s.token;
      const key = sessionStorage.getItem(keyName);
      if (key) h['X-API-Key'] = key;
      return h;
    }
  };
}
