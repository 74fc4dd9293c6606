/* Charts as inline SVG we draw: no chart library. */

const NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, text) {
  const n = document.createElementNS(NS, tag);
  Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, String(attrs[k])); });
  if (text !== undefined) n.textContent = String(text);
  return n;
}

/** Bars of `value` per item in order, labelled below; `title` on each bar for the exact figure. */
export function bars(container, items, cls, emptyText) {
  container.replaceChildren();
  if (!items.length) { container.textContent = emptyText; return; }
  const width = 960, height = 180, left = 40, bottom = 36, top = 10;
  const max = Math.max(1, ...items.map(function (i) { return i.value; }));
  const root = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': items.length + ' bars' });
  const slot = (width - left) / items.length;
  root.appendChild(svg('line', { x1: left, y1: height - bottom, x2: width, y2: height - bottom, stroke: '#c9d0db' }));
  root.appendChild(svg('text', { x: 4, y: top + 10 }, max));
  root.appendChild(svg('text', { x: 4, y: height - bottom }, 0));
  items.forEach(function (item, index) {
    const h = Math.round((item.value / max) * (height - bottom - top));
    const x = left + index * slot + slot * 0.15;
    const bar = svg('rect', { x: x, y: height - bottom - h, width: Math.max(2, Math.min(48, slot * 0.7)), height: h, class: cls });
    bar.appendChild(svg('title', {}, item.label + ': ' + item.value));
    root.appendChild(bar);
    if (items.length <= 24 || index % Math.ceil(items.length / 24) === 0) {
      root.appendChild(svg('text', { x: x, y: height - bottom + 14 }, item.short || item.label));
    }
  });
  container.appendChild(root);
}
