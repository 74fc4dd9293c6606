/* The camera: its status on the scanning screen, the live preview (an MJPEG stream, started and
 * stopped with the screen and retried when it breaks) and the outlines of the codes it reads,
 * drawn over the picture for a moment. */

import { app } from './app.js';
import { setText } from './elements.js';
import { el } from './dom.js';
import { arr, num, obj, str } from './format.js';
import { playSound } from './sound.js';

const OUTLINE_CLEAR_MS = 600;

let previewActive = false;
let previewRetry = null;
let lastCameraState = null;
let outlineTimer = null;
let lastOutlines = null;
let previewWatch = null;

/** A camera that was configured and stopped working is an alarm: a banner across the whole
 *  screen in plain words, with its sound, gone by itself when the camera works again. */
function renderCameraAlarm(st) {
  const lost = st === 'lost' && app.screen !== 'pin' && app.screen !== 'loading';
  if (lost && el.cameraAlarm.hidden) playSound('camera_lost');
  el.cameraAlarm.hidden = !lost;
  document.body.setAttribute('data-camera', st);
}

export function renderCamera() {
  const cam = obj(app.state && app.state.camera) || {};
  const st = ['none', 'starting', 'ready', 'lost'].indexOf(cam.state) >= 0 ? cam.state : 'none';
  renderCameraAlarm(st);
  el.previewBox.setAttribute('data-camera', st);
  const headline = st === 'starting' ? 'Camera starting\u2026'
    : st === 'lost' ? 'Camera not working'
      : st === 'ready' ? 'Connecting to the camera\u2026' : 'No camera';
  setText(el.cameraHeadline, headline);
  setText(el.cameraMessage, st === 'ready' ? '' : st === 'lost' ? 'It comes back by itself when it works again.' : str(cam.message));
  const want = app.screen === 'scan' && (st === 'ready' || st === 'starting');
  if (!want) stopPreview();
  else if (st === 'ready' && (lastCameraState !== 'ready' || !previewActive)) startPreview();
  else if (!previewActive) startPreview();
  lastCameraState = st;
}

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

export function stopPreview() {
  clearTimeout(previewRetry);
  if (previewActive || el.preview.getAttribute('src')) {
    previewActive = false;
    el.preview.removeAttribute('src');
    el.previewBox.setAttribute('data-loaded', 'false');
  }
}

export function onPreviewLoad() {
  if (!previewActive) return;
  el.previewBox.setAttribute('data-loaded', 'true');
  placeOutlines();
}

export function onPreviewError() {
  if (!previewActive) return;
  previewActive = false;
  el.previewBox.setAttribute('data-loaded', 'false');
  clearTimeout(previewRetry);
  previewRetry = setTimeout(function () {
    const cam = obj(app.state && app.state.camera) || {};
    if (app.screen === 'scan' && (cam.state === 'ready' || cam.state === 'starting')) startPreview();
  }, 5000);
}

/** The SVG covers exactly the part of the box the picture is drawn in (object-fit: contain). */
export function placeOutlines() {
  const box = el.previewBox;
  const bw = box.clientWidth, bh = box.clientHeight;
  const cam = obj(app.state && app.state.camera) || {};
  const nw = el.preview.naturalWidth || num(cam.width) || (lastOutlines && num(lastOutlines.width)) || 16;
  const nh = el.preview.naturalHeight || num(cam.height) || (lastOutlines && num(lastOutlines.height)) || 9;
  if (!bw || !bh || !nw || !nh) return;
  const scale = Math.min(bw / nw, bh / nh);
  const w = nw * scale, h = nh * scale;
  el.outlines.style.left = ((bw - w) / 2) + 'px';
  el.outlines.style.top = ((bh - h) / 2) + 'px';
  el.outlines.style.width = w + 'px';
  el.outlines.style.height = h + 'px';
}

export function clearOutlines() {
  clearTimeout(outlineTimer);
  while (el.outlines.firstChild) el.outlines.removeChild(el.outlines.firstChild);
}

export function drawOutlines(data) {
  data = obj(data);
  if (!data || app.screen !== 'scan') return;
  const codes = arr(data.codes);
  clearOutlines();
  if (!codes.length) return;
  const w = num(data.width), h = num(data.height);
  if (!(w > 0 && h > 0)) return;
  lastOutlines = data;
  el.outlines.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
  placeOutlines();
  const ns = 'http://www.w3.org/2000/svg';
  codes.forEach(function (code) {
    code = obj(code);
    if (!code) return;
    const pts = arr(code.points).filter(obj).map(function (p) { return num(p.x) + ',' + num(p.y); });
    if (!pts.length) return;
    const poly = document.createElementNS(ns, 'polygon');
    poly.setAttribute('points', pts.join(' '));
    el.outlines.appendChild(poly);
    if (code.text) {
      const first = obj(arr(code.points)[0]) || { x: 0, y: 0 };
      const minY = Math.min.apply(null, arr(code.points).filter(obj).map(function (p) { return num(p.y); }));
      const label = document.createElementNS(ns, 'text');
      label.setAttribute('x', String(num(first.x)));
      label.setAttribute('y', String(Math.max(24, minY - 10)));
      label.setAttribute('font-size', String(Math.max(16, Math.round(h / 22))));
      label.textContent = str(code.text).slice(0, 60);
      el.outlines.appendChild(label);
    }
  });
  outlineTimer = setTimeout(clearOutlines, OUTLINE_CLEAR_MS);
}
