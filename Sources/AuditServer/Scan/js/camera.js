/* The phone's camera: the rear one by default, a switch when there are several, the torch where
 * the browser offers it. About five frames a second, the viewfinder's box cut out and scaled to
 * at most 1280 px wide, go to the server's decoder (POST /api/v1/decode) as JPEG, one request at
 * a time. A code read in two frames in a row is a scan; it counts once while it stays in view,
 * and again only after it was out of view for 2 s (the kiosk camera's rule): decoded frames
 * without it for at least 2 s, and at least GONE_FRAMES of them. A frame the server did not
 * decode (a slow network, a refusal) says nothing about what is in view, so a tag held still
 * through a slow answer is not counted twice. Where the browser has BarcodeDetector, a code it
 * sees only sends the next frame at once: the server confirms. */

import { arr, obj, str } from './format.js';
import { call } from './server.js';

const FRAME_MS = 200;          // about 5 frames a second
const MAX_WIDTH = 1280;        // the box is sent at most this wide
const GONE_MS = 2000;          // out of view this long: the code counts again when it comes back
const GONE_FRAMES = 3;         // and missing from at least this many decoded frames
const BOX = { x: 0.08, y: 0.2, w: 0.84, h: 0.6 };   // the viewfinder, as parts of the frame

const hooks = window.scanPage = window.scanPage || {};
hooks.frames = 0;
hooks.frameTimes = [];
/** For the frame-to-outcome figure (Benchmarks/phone): each confirmed code, with the time
 *  (performance.timeOrigin based, ms) its first frame and its confirming frame were grabbed. */
hooks.reads = [];

export class Camera {
  /** `video`: the element; `onCode(text, frame, symbology)`: a confirmed code with the frame
   *  (a JPEG Blob) it was read in; `onState(state, message)`: 'starting', 'on', 'off', 'error',
   *  'offline' (the decoder cannot be reached). */
  constructor(video, onCode, onState) {
    this.video = video;
    this.onCode = onCode;
    this.onState = onState;
    this.stream = null;
    this.devices = [];
    this.deviceIndex = -1;
    this.timer = null;
    this.busy = false;
    this.previous = new Set();
    this.firstSeen = new Map();  // text -> when the frame that first read it (in a row) was grabbed
    this.counted = new Map();   // text counted and not gone since -> { at: when the last frame that read it was grabbed, missed: decoded frames since without it }
    this.canvas = document.createElement('canvas');
    this.detector = null;
    this.torch = false;
    this.paused = false;
  }

  get running() { return !!this.stream; }

  async start(deviceId) {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      this.onState('error', 'This browser gives no camera to this page. Open it over HTTPS (or on this phone at 127.0.0.1), or type and scan tags below.');
      return;
    }
    this.stop();
    this.onState('starting', 'Starting the camera…');
    const video = deviceId ? { deviceId: { exact: deviceId } } : { facingMode: { ideal: 'environment' } };
    video.width = { ideal: 1920 };
    video.height = { ideal: 1080 };
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ video: video, audio: false });
    } catch (e) {
      this.stream = null;
      const denied = e && (e.name === 'NotAllowedError' || e.name === 'SecurityError');
      this.onState('error', denied
        ? 'The camera was not allowed. Allow it in the browser\u2019s site settings, or type and scan tags below.'
        : 'The camera could not be started (' + str(e && e.message) + '). Type and scan tags below.');
      return;
    }
    this.video.srcObject = this.stream;
    try { await this.video.play(); } catch (e) { /* muted inline video plays without a gesture */ }
    try {
      this.devices = arr(await navigator.mediaDevices.enumerateDevices()).filter(function (d) { return d.kind === 'videoinput'; });
    } catch (e) { this.devices = []; }
    const track = this.stream.getVideoTracks()[0];
    const settings = track && track.getSettings ? track.getSettings() : {};
    this.deviceIndex = Math.max(0, this.devices.findIndex(function (d) { return d.deviceId === settings.deviceId; }));
    if (!this.detector && 'BarcodeDetector' in window) {
      try { this.detector = new window.BarcodeDetector(); } catch (e) { this.detector = null; }
    }
    this.previous = new Set();
    this.firstSeen = new Map();  // text -> when the frame that first read it (in a row) was grabbed
    this.onState('on', '');
    this.timer = setInterval(this.tick.bind(this), FRAME_MS);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.stream) this.stream.getTracks().forEach(function (t) { t.stop(); });
    this.stream = null;
    this.video.srcObject = null;
    this.torch = false;
  }

  get canSwitch() { return this.devices.length > 1; }

  /** The next camera of the phone. */
  switchCamera() {
    if (!this.canSwitch) return;
    const next = this.devices[(this.deviceIndex + 1) % this.devices.length];
    this.start(next.deviceId);
  }

  get canTorch() {
    const track = this.stream && this.stream.getVideoTracks()[0];
    const caps = track && track.getCapabilities ? track.getCapabilities() : {};
    return !!(caps && caps.torch);
  }

  async toggleTorch() {
    const track = this.stream && this.stream.getVideoTracks()[0];
    if (!track) return false;
    try {
      await track.applyConstraints({ advanced: [{ torch: !this.torch }] });
      this.torch = !this.torch;
    } catch (e) { /* not offered after all */ }
    return this.torch;
  }

  /** The viewfinder's box of the current frame, at most 1280 px wide, as a JPEG Blob. */
  frame() {
    const v = this.video;
    const sw = Math.round(v.videoWidth * BOX.w), sh = Math.round(v.videoHeight * BOX.h);
    const scale = Math.min(1, MAX_WIDTH / sw);
    const c = this.canvas;
    c.width = Math.round(sw * scale);
    c.height = Math.round(sh * scale);
    c.getContext('2d').drawImage(v, Math.round(v.videoWidth * BOX.x), Math.round(v.videoHeight * BOX.y), sw, sh, 0, 0, c.width, c.height);
    return new Promise(function (resolve) { c.toBlob(resolve, 'image/jpeg', 0.85); });
  }

  async tick() {
    if (this.busy || this.paused || !this.stream || !this.video.videoWidth) return;
    this.busy = true;
    try {
      if (this.detector && this.previous.size === 0) {
        // BarcodeDetector only proposes: a frame with nothing in it is not sent.
        let seen = [];
        try { seen = arr(await this.detector.detect(this.video)); } catch (e) { this.detector = null; }
        if (this.detector && seen.length === 0 && hooks.frames % 5 !== 0) { hooks.frames++; return; }
      }
      const grabbed = performance.timeOrigin + performance.now();
      const blob = await this.frame();
      if (!blob) return;
      const started = performance.now();
      const res = await call('POST', '/api/v1/decode', blob, 8000);
      hooks.frames++;
      hooks.frameTimes.push(performance.now() - started);
      if (hooks.frameTimes.length > 200) hooks.frameTimes.shift();
      if (!res.ok) {
        if (res.status === 0 || res.status >= 500) this.onState('offline', 'The camera needs the server, which cannot be reached: type or scan tags meanwhile, they wait here.');
        else if (res.status === 429) this.pauseFor((res.retryAfter || 1) * 1000);
        else if (res.status === 401) this.onState('error', res.message);
        return;
      }
      this.onState('on', '');
      const codes = arr(obj(res.data) && res.data.codes).filter(function (c) { return obj(c) && str(c.text); });
      const texts = new Set(codes.map(function (c) { return str(c.text); }));
      const self = this;
      // A counted code that this decoded frame lacks: one more frame without it; gone once it has
      // been missing from GONE_FRAMES frames over GONE_MS.
      this.counted.forEach(function (seen, text) {
        if (texts.has(text)) return;
        seen.missed++;
        if (seen.missed >= GONE_FRAMES && grabbed - seen.at > GONE_MS) self.counted.delete(text);
      });
      const firstSeen = new Map();
      codes.forEach(function (c) {
        const text = str(c.text);
        const seen = self.counted.get(text);
        if (seen) { seen.at = grabbed; seen.missed = 0; return; }   // still in view: counted already
        if (!self.previous.has(text)) { firstSeen.set(text, grabbed); return; }   // read once: wait for the next frame
        firstSeen.set(text, self.firstSeen.get(text) || grabbed);
        self.counted.set(text, { at: grabbed, missed: 0 });
        hooks.reads.push({ text: text, first: firstSeen.get(text), confirmed: grabbed });
        if (hooks.reads.length > 2000) hooks.reads.shift();
        self.onCode(text, blob, str(c.symbology));
      });
      this.previous = texts;
      this.firstSeen = firstSeen;
    } finally {
      this.busy = false;
    }
  }

  pauseFor(ms) {
    this.paused = true;
    const self = this;
    setTimeout(function () { self.paused = false; }, ms);
  }
}

const PHOTO_LIMIT = 200 * 1024;

/** The frame a problem was read in, kept as the scan's evidence photo (at most 200 KB). */
export async function keepPhoto(item, frame) {
  let blob = frame;
  if (blob.size > PHOTO_LIMIT && window.createImageBitmap) {
    try {
      const bitmap = await createImageBitmap(blob);
      const c = document.createElement('canvas');
      const scale = Math.min(1, 800 / bitmap.width);
      c.width = Math.round(bitmap.width * scale);
      c.height = Math.round(bitmap.height * scale);
      c.getContext('2d').drawImage(bitmap, 0, 0, c.width, c.height);
      blob = await new Promise(function (resolve) { c.toBlob(resolve, 'image/jpeg', 0.7); });
    } catch (e) { return; }
  }
  if (!blob || blob.size > PHOTO_LIMIT) return;
  const path = '/api/v1/audit/' + encodeURIComponent(item.audit_id) + '/scans/' + encodeURIComponent(item.scan_id) +
    '/photo?taken_at=' + encodeURIComponent(item.scanned_at);
  await call('PUT', path, blob, 15000);
}
