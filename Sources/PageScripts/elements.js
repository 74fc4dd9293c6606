/* The DOM helpers every page uses (the kiosk, the phone page and the back office): $ finds an
 * element by its id, make builds one with its class and text, setText changes a node only when
 * its text differs. A value always goes in as text, never as HTML. */

export function $(id) { return document.getElementById(id); }

export function make(tag, cls, text) {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined && text !== null) n.textContent = String(text);
  return n;
}

export function setText(node, text) { if (node && node.textContent !== text) node.textContent = text; }
