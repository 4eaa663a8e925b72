#!/usr/bin/env node
/**
 * Draws the demo documents of docs/invoices.md: a renewal of a monthly plan with seats and
 * metered usage, issued by a German seller to a French business with a VAT id (so the
 * reverse charge applies), and the credit note of a partial refund of it, through the same
 * code that draws every invoice and credit note (packages/server/dist: run `npm run build`
 * first). Writes the PDFs, and page 1 of each as PNG with pdftoppm (Debian: apt-get install
 * poppler-utils).
 *
 *   node packages/server/scripts/render-demo-invoice.mjs [out-dir]   (default docs/images)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { creditNoteDocument } from '../dist/modules/credit-notes/document.js';
import { invoiceDocument } from '../dist/modules/invoices/document.js';
import { renderDocument } from '../dist/modules/invoices/pdf/layout.js';

const out = process.argv[2] ?? 'docs/images';
const period = { periodStart: '2026-11-27T09:00:00.000Z', periodEnd: '2026-12-27T09:00:00.000Z' };
const usagePeriod = { periodStart: '2026-10-27T09:00:00.000Z', periodEnd: '2026-11-27T09:00:00.000Z' };
const lines = [
  { description: 'Pro (MONTHLY)', featureId: null, quantity: 1, amountMinor: 4900, kind: 'plan', name: 'Pro plan', chargePeriod: 'MONTHLY', ...period },
  { description: 'Seats × 5', featureId: 'seats', quantity: 5, amountMinor: 5000, kind: 'feature', name: 'Seats', chargePeriod: 'MONTHLY', unitMinor: 1000, ...period },
  { description: 'API calls: 7707 used', featureId: 'api-calls', quantity: 7707, amountMinor: 7707, kind: 'usage', name: 'API calls', unitMinor: 1, ...usagePeriod },
];
const subtotal = 4900 + 5000 + 7707;
const discount = 990; // a discount on the whole invoice, shared by its lines
const tax = 0; // reverse charge: the French business accounts for the VAT
const row = {
  id: 'INV-20261127090000-7Q2K4M8R1T',
  number: 'ACME-2026-000042',
  status: 'PAID',
  order_id: 'ORD-20261127090000-X5V8N2B6C3',
  currency: 'EUR',
  subtotal_minor: subtotal,
  discount_minor: discount,
  tax_minor: tax,
  total_minor: subtotal - discount + tax,
  credit_minor: 0,
  tax_rate_bp: 0,
  tax_behavior: 'EXCLUSIVE',
  tax_country: 'FR',
  tax_reason: 'reverse_charge',
  buyer_tax_id: { type: 'eu_vat', value: 'FR40303265045', country: 'FR' },
  lines,
  seller: {
    name: 'Acme Software GmbH',
    displayName: 'Acme',
    address: { line1: 'Torstraße 1', line2: null, city: 'Berlin', postalCode: '10119', region: null, country: 'DE' },
    taxIds: [{ country: 'DE', taxId: 'DE123456788' }],
    email: 'billing@acme.example',
    website: 'https://acme.example',
    timeZone: 'Europe/Berlin',
    language: 'en',
  },
  buyer: {
    customerId: 'analytique',
    name: 'Analytique SAS',
    email: 'compta@analytique.example',
    billingAddress: { line1: '12 rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' },
    taxId: 'FR40303265045',
  },
  issued_at: new Date('2026-11-27T09:00:00Z'),
  paid_at: new Date('2026-11-27T09:00:00Z'),
  due_at: null,
  customer_name: 'Analytique SAS',
  customer_email: 'compta@analytique.example',
  customer_address: null,
};

/** The credit note of a refund of two of the five seats, a week after the invoice. */
const creditNote = {
  id: '5d0c3f7e-2b8a-4c61-9e0f-7a1b2c3d4e5f',
  number: 'ACME-CN-2026-000007',
  reason: 'REFUND',
  invoice_id: row.id,
  invoice_number: row.number,
  invoice_tax_reason: 'reverse_charge',
  currency: 'EUR',
  subtotal_minor: 2000,
  tax_minor: 0,
  total_minor: 2000,
  lines: [{ description: 'Refund of 2 seats of invoice ACME-2026-000042', quantity: 1, amountMinor: 2000, taxRateBp: 0, taxMinor: 0 }],
  seller: row.seller,
  buyer: row.buyer,
  issued_at: new Date('2026-12-04T10:30:00Z'),
  customer_name: row.customer_name,
  customer_email: row.customer_email,
};

mkdirSync(out, { recursive: true });
for (const [name, document] of [
  ['demo-invoice', invoiceDocument(row, 'Acme')],
  ['demo-credit-note', creditNoteDocument(creditNote)],
]) {
  const pdfPath = join(out, `${name}.pdf`); // kept next to the PNG; docs/ commits the PNG only
  writeFileSync(pdfPath, await renderDocument(document));
  execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', pdfPath, join(out, name)]);
  console.log(`${pdfPath} and ${join(out, `${name}.png`)}`);
}
