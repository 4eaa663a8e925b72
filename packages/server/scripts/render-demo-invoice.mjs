#!/usr/bin/env node
/**
 * Draws the demo invoice of docs/invoices.md: a renewal of a monthly plan with seats and
 * metered usage, issued by a German seller to a French business, through the same code
 * that draws every invoice (packages/server/dist: run `npm run build` first). Writes the
 * PDF, and page 1 as PNG with pdftoppm (Debian: apt-get install poppler-utils).
 *
 *   node packages/server/scripts/render-demo-invoice.mjs [out-dir]   (default docs/images)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
const tax = Math.round(((subtotal - discount) * 1900) / 10000);
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
  tax_rate_bp: 1900,
  tax_behavior: 'EXCLUSIVE',
  tax_country: 'DE',
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
    customerId: 'ada',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    billingAddress: { line1: '12 rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' },
    taxId: null,
  },
  issued_at: new Date('2026-11-27T09:00:00Z'),
  paid_at: new Date('2026-11-27T09:00:00Z'),
  due_at: null,
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  customer_address: null,
};

mkdirSync(out, { recursive: true });
const pdf = await renderDocument(invoiceDocument(row, 'Acme'));
const pdfPath = join(out, 'demo-invoice.pdf'); // kept next to the PNG; docs/ commits the PNG only
writeFileSync(pdfPath, pdf);
execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', pdfPath, join(out, 'demo-invoice')]);
console.log(`${pdfPath} and ${join(out, 'demo-invoice.png')}`);
