import type { SellerProfile } from '@billow/contract';
import { countryName } from '../format';
import { t } from '../i18n/language';

/** The address as an invoice prints it: street lines, postal code and city, region, country. */
function addressLines(address: SellerProfile['address']): string[] {
  if (!address) return [];
  const lines = [address.line1, address.line2, [address.postalCode, address.city].filter(Boolean).join(' '), address.region, countryName(address.country)];
  return lines.filter((line): line is string => !!line);
}

/**
 * The seller block of an invoice as the saved profile makes it: the logo, the legal name (the
 * display name without one), the address, each tax registration and the contacts, with the
 * number the next invoice would start with. Cheap, and close to the PDF, not a copy of it.
 */
export function SellerPreview({ profile }: { profile: SellerProfile }) {
  const year = new Date().getFullYear();
  const lines = [
    ...addressLines(profile.address),
    ...profile.taxRegistrations.map((r) => t('profile.previewTaxId', { taxId: r.taxId })),
    profile.supportEmail,
    profile.websiteUrl,
  ].filter((line): line is string => !!line);
  return (
    <figure className="invoice-preview">
      <div className="invoice-preview-head">
        {profile.logoUrl ? <img src={profile.logoUrl} alt={t('profile.logoOf', { name: profile.displayName })} className="invoice-preview-logo" /> : null}
        <p className="invoice-preview-title">
          {t('profile.invoice')} <span className="muted">{`${profile.invoicePrefix ?? 'INV'}-${year}-000001`}</span>
        </p>
      </div>
      <p className="invoice-preview-name">{profile.legalName ?? profile.displayName}</p>
      <ul className="plain invoice-preview-lines">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <figcaption className="hint">{t('profile.previewCaption', { name: profile.displayName })}</figcaption>
    </figure>
  );
}
