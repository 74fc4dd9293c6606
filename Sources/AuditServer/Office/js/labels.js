/* "Print labels": a PDF of asset labels (or ZPL for a Zebra printer) from the server, drawn
 * with the symbols it makes; the browser saves it, to print from any PDF viewer. */
import { download } from './api.js';
import { save } from './dom.js';
import { edit } from './form.js';

const choices = [
  { name: 'symbology', label: 'Symbol', type: 'select', choices: [
    { value: 'qr', label: 'QR code' }, { value: 'datamatrix', label: 'Data Matrix' }, { value: 'code128', label: 'Code 128' }] },
  { name: 'layout', label: 'Layout', type: 'select', choices: [
    { value: 'a4-3x8', label: 'A4, 3 × 8' }, { value: 'a4-4x10', label: 'A4, 4 × 10' },
    { value: 'letter-3x10', label: 'Letter, 3 × 10' }, { value: 'roll-62x29', label: 'Roll, 62 × 29 mm' }] },
  { name: 'format', label: 'Format', type: 'select', choices: [{ value: 'pdf', label: 'PDF' }, { value: 'zpl', label: 'ZPL (Zebra printers)' }] }
];

/** Asks for the symbol, layout and format (and `fields` that say which assets), then saves the file. */
export function labels(fixed, title, fields, values) {
  edit(title, (fields || []).concat(choices), values || null, false, 'Make the labels', async function (body) {
    // Tags typed or scanned in are "these tags only": the country the form started with goes.
    if (body.tags && body.tags.length) { delete body.country; delete body.location; }
    const file = await download('/api/v2/assets/labels', Object.assign({}, body, fixed));
    save(file.blob, file.name);
    // The file holds the others; the dialog stays open and says which were not made, and why.
    if (file.refused) {
      throw new Error('Saved ' + file.name + ' without ' + file.refused.count + (file.refused.count === 1 ? ' label' : ' labels') +
        ' that could not be made: ' + file.refused.detail);
    }
  });
}
