/* The back office: log in, then the screen the address names (#/audits, #/audit/ID, #/assets,
 * #/accessories, #/customers, #/users, #/devices). */
import { session, logIn, logOut, useKey, APIError } from './api.js';
import { $ } from './elements.js';
import { GunKeys, typedKeys } from './burst.js';
import * as views from './views.js';
import * as records from './records.js';
import * as users from './users.js';
import * as plans from './plans.js';
import * as webhooks from './webhooks.js';

const screens = ['login-view', 'audits-view', 'audit-view', 'records-view', 'users-view', 'devices-view', 'due-view', 'webhooks-view'];

function show(id, hash) {
  screens.forEach(function (s) { $(s).hidden = s !== id; });
  document.querySelectorAll('#nav a').forEach(function (a) {
    if (a.getAttribute('href') === (hash || '#/' + id.replace('-view', ''))) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
}

function signedIn(user) {
  $('nav').hidden = false;
  $('logout').hidden = false;
  $('who').textContent = user.name + ' (' + user.user_type + ')';
  // Administration is for ADMIN users only (the API refuses anyone else too).
  $('nav-devices').hidden = user.user_type !== 'ADMIN';
  $('nav-users').hidden = user.user_type !== 'ADMIN';
  $('nav-webhooks').hidden = user.user_type !== 'ADMIN';
}

async function route() {
  views.stopAudit();
  $('page-error').textContent = '';
  const s = session();
  if (!s) {
    $('nav').hidden = true;
    $('logout').hidden = true;
    $('who').textContent = '';
    show('login-view');
    $('login-email').focus();
    return;
  }
  signedIn(s.user);
  const hash = location.hash || '#/audits';
  try {
    if (hash.indexOf('#/audit/') === 0) {
      show('audit-view');
      let id = hash.slice(8);
      try { id = decodeURIComponent(id); } catch (e) { /* a broken escape is shown as typed */ }
      try {
        await views.audit(id);
      } catch (e) {
        if (!(e instanceof views.NoSuchAudit)) throw e;
        show('audits-view', '#/audits');
        await views.audits(1);
        $('page-error').textContent = e.message;
      }
    } else if (Object.prototype.hasOwnProperty.call(records.kinds, hash.slice(2))) {
      show('records-view', hash);
      await records.show(hash.slice(2));
    } else if (hash === '#/users' && s.user.user_type === 'ADMIN') {
      show('users-view');
      await users.show();
    } else if (hash === '#/due') {
      show('due-view');
      await plans.show();
    } else if (hash === '#/webhooks' && s.user.user_type === 'ADMIN') {
      show('webhooks-view');
      await webhooks.show();
    } else if (hash === '#/devices' && s.user.user_type === 'ADMIN') {
      show('devices-view');
      await views.devices();
    } else {
      show('audits-view');
      await views.audits(1);
    }
  } catch (e) {
    // A 401 has already sent the page to the login (the office:signed-out event).
    if (e instanceof APIError && e.status === 401) return;
    $('page-error').textContent = e.message || String(e);
  }
}

function bind() {
  $('login-form').addEventListener('submit', async function (e) {
    e.preventDefault();
    $('login-error').textContent = '';
    try {
      useKey($('login-key').value.trim());
      await logIn($('login-email').value.trim(), $('login-password').value);
      $('login-password').value = '';
      await route();
    } catch (err) {
      $('login-error').textContent = err.message || String(err);
    }
  });
  $('logout').addEventListener('click', async function () { await logOut(); location.hash = '#/audits'; await route(); });
  $('audits-filter').addEventListener('submit', function (e) { e.preventDefault(); views.audits(1).catch(function (err) { $('page-error').textContent = err.message; }); });
  views.bindAudit();
  records.bind();
  users.bind();
  plans.bind();
  webhooks.bind();
  window.addEventListener('hashchange', route);
  // Any answer of 401 (the user disabled, the token revoked or expired): the login, which says why.
  window.addEventListener('office:signed-out', function (e) {
    route().then(function () { $('login-error').textContent = 'You were signed out. ' + e.detail; });
  });
}

/* A barcode gun types its tag and Enter (or Tab) a few milliseconds apart, wherever the focus
 * is; what a burst is comes from burst.js, the rule the kiosk follows too. The back office
 * records no scans, so such an Enter never submits a form, answers a dialog or presses a button
 * (a space inside the tag, as in a location label "LOC:Dock B", does not press the focused Start
 * or Remove either): it is refused aloud, the field it landed in gets back what it held, and
 * nothing is done. In a search box it is what the user meant, a look-up
 * of the tag: the box holds the scanned tag alone (not appended to what it held) and the search
 * runs. In a text area (the labels form's tags, one a line) the end of the burst is the new line
 * after the tag, which is what scanning tags into a list means.
 *
 * A password is never a tag: keys typed into a password field, however fast (a password
 * manager's auto-type, about 25 ms a key and then Enter; a badge reader), are typed input, and
 * their Enter submits the form (logs in). So is the Tab of an auto-type from the login's email to
 * its password; a burst that ends with Enter in the email field is still refused as a scan. */
const gun = new GunKeys();

function isTypedInput(node, key) {
  if (!node || node.tagName !== 'INPUT') return false;
  if (node.type === 'password') return true;
  return key === 'Tab' && node.form !== null && node.form === $('login-form');
}
function onKeyDown(e) {
  const scan = gun.keydown(e);
  if (!scan) return;
  const box = document.activeElement;
  if (isTypedInput(box, e.key)) return;
  const tab = e.key === 'Tab';
  if (box && box.tagName === 'INPUT' && box.type === 'search' && box.form) {
    box.value = scan.tag;
    $('page-error').textContent = '';
    if (tab) {
      e.preventDefault();
      box.form.requestSubmit();
    }
    return;
  }
  if (box && box.tagName === 'TEXTAREA') {
    // A burst is a tag of its own: after text a person typed on the same line ("SG-", given up
    // on), it goes on a line of its own instead of joining that text.
    const held = scan.before;
    if (held && held.node === box && held.start !== null && held.start > 0 && held.value.charAt(held.start - 1) !== '\n') {
      box.setRangeText('\n', held.start, held.start, 'preserve');
    }
    if (tab) {
      e.preventDefault();
      box.setRangeText('\n', box.selectionStart, box.selectionEnd, 'end');
    }
    return;
  }
  // Anywhere else the tag's characters come back out of the field they landed in (a form's
  // URL, a country, a number), so a later Save never sends them.
  e.preventDefault();
  e.stopPropagation();
  scan.restore();
  const said = 'That was a barcode scan. The back office does not record scans (use a kiosk); nothing was done.';
  $('page-error').textContent = said;
  // Also on the screen's own message line, above its table (the page's error line is under it,
  // out of sight below a long table).
  ['records', 'users', 'due', 'webhooks'].forEach(function (view) {
    if ($(view + '-view').hidden) return;
    $(view + '-message').className = 'error';
    $(view + '-message').textContent = said;
  });
  if (!$('login-view').hidden) $('login-error').textContent = said;
  if ($('void-dialog').open) $('void-error').textContent = said;
  if ($('end-dialog').open) $('end-error').textContent = said;
  if ($('record-dialog').open) $('record-error').textContent = said;
}
window.addEventListener('keydown', onKeyDown, true);
window.addEventListener('keypress', typedKeys(onKeyDown), true);
window.addEventListener('keyup', function (e) { gun.keyup(e); }, true);

bind();
route();
