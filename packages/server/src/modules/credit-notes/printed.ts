/** The seller and buyer blocks of a credit note as its PDF prints them: names, then lines of detail. */
import { countryName } from '../invoices/pdf.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

function addressLines(address: Record<string, unknown> | null): string[] {
  if (!address) return [];
  const postal = text(address.postalCode) ?? text(address.postal_code);
  const country = text(address.country);
  return [
    text(address.line1),
    text(address.line2),
    [postal, text(address.city)].filter(Boolean).join(' ') || null,
    text(address.state) ?? text(address.region),
    country ? countryName(country) : null,
  ].filter((line): line is string => line !== null);
}

export function sellerPrinted(seller: Record<string, unknown>, fallbackName: string): { name: string; details: string[] } {
  const taxIds = Array.isArray(seller.taxIds) ? (seller.taxIds as Array<{ taxId?: unknown }>) : [];
  return {
    name: text(seller.name) ?? fallbackName,
    details: [
      ...addressLines(record(seller.address)),
      ...taxIds.map((t) => text(t.taxId)).filter((id): id is string => id !== null).map((id) => `Tax ID ${id}`),
      text(seller.email),
      text(seller.website),
    ].filter((line): line is string => line !== null),
  };
}

export function buyerPrinted(buyer: Record<string, unknown>, fallback: { name: string | null; email: string | null }): { name: string; details: string[] } {
  const name = text(buyer.name) ?? fallback.name;
  const email = text(buyer.email) ?? fallback.email;
  const taxId = text(buyer.taxId);
  return {
    name: name ?? email ?? 'Customer',
    details: [
      ...(name && email ? [email] : []),
      ...addressLines(record(buyer.billingAddress) ?? record(buyer.billing_address)),
      ...(taxId ? [`Tax ID ${taxId}`] : []),
    ],
  };
}
