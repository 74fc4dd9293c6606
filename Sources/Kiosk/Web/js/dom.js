/* The page's elements: el holds every element the modules use, filled once by bindElements().
 * The DOM helpers ($, make, setText) are the pages' shared elements.js. */

import { $ } from './elements.js';

/** Every element the modules use, by its id in camelCase (#outcome-title is el.outcomeTitle). */
export const el = {};

/** Fills `el` once the page is parsed. */
export function bindElements() {
  [
    'service-status', 'topbar', 'station-name', 'audit-label', 'scanner-label', 'connection', 'pending', 'last-sync',
    'scan-controls', 'change-user', 'mute', 'leave-button', 'end-button', 'loading-message', 'pin-station', 'pin-form',
    'pin', 'pin-submit', 'pin-error', 'start-station', 'user-name', 'user-save', 'user-status', 'start-message', 'countries-error',
    'countries', 'countries-empty', 'outcome', 'outcome-symbol', 'outcome-title', 'outcome-detail', 'outcome-info',
    'outcome-message', 'entry', 'entry-note', 'sending', 'preview-box', 'preview', 'outlines', 'camera-status', 'camera-headline',
    'camera-message', 'percent', 'audit-country', 'progress-bar', 'progress-fill', 'count-total', 'count-scanned',
    'count-missing', 'count-unexpected', 'recent', 'recent-empty', 'missing-search', 'unexpected-search',
    'summary-heading', 'summary-notice', 'summary-times', 'download-csv', 'download-pdf', 'download-json', 'back-to-start', 'summary-error',
    'summary-total', 'summary-scanned', 'summary-missing', 'summary-unexpected', 'summary-percent', 'summary-duration',
    'confirm-dialog', 'confirm-title', 'confirm-text', 'confirm-warning', 'confirm-error', 'confirm-no', 'confirm-yes', 'user-dialog',
    'user-dialog-form', 'user-dialog-name', 'user-dialog-error', 'user-dialog-cancel', 'user-dialog-save',
    'camera-alarm', 'camera-alarm-title', 'camera-alarm-text', 'gun-alarm', 'gun-alarm-symbol', 'gun-alarm-title',
    'gun-alarm-tag', 'gun-alarm-why', 'location-label', 'undo-button', 'change-location', 'problem-stack',
    'undo-dialog', 'undo-title', 'undo-text', 'undo-error', 'undo-no', 'undo-yes', 'location-dialog',
    'location-choices', 'location-error', 'location-cancel', 'scope-dialog', 'scope-title', 'scope-choices', 'scope-error',
    'scope-cancel', 'scope-start', 'missing-heading', 'unexpected-heading', 'print-button', 'print-sheet', 'summary-missing-count', 'summary-unexpected-count',
    'places-card', 'places-body', 'places-foot', 'places-note', 'summary-places-card', 'summary-places-body', 'summary-places-foot',
    'summary-places-note', 'user-dialog-hint', 'photo-dialog', 'photo-title', 'photo-text', 'photo-image', 'photo-error', 'photo-close',
    'count-dialog', 'count-title', 'count-text', 'count-form', 'count-quantity', 'count-error', 'count-done', 'count-set'
  ].forEach(function (id) {
    el[id.replace(/-([a-z])/g, function (m, c) { return c.toUpperCase(); })] = $(id);
  });
}

export function cssEscape(v) { return window.CSS && CSS.escape ? CSS.escape(v) : String(v).replace(/["\\]/g, '\\$&'); }
