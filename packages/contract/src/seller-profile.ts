import { Type, type Static } from 'typebox';

/** Billow's own resource, not in the Kelviq API: who the seller is, as buyers and tax offices see it. */

const Country = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 country code, e.g. DE' });
const Url = (description: string) =>
  Type.Union([Type.String({ maxLength: 2048, pattern: '^https?://[^\\s]+$', description }), Type.Null()]);
const Text = (maxLength: number, description: string) => Type.Union([Type.String({ minLength: 1, maxLength, pattern: '\\S', description }), Type.Null()]);

export const SELLER_LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;

export const SellerAddress = Type.Object(
  {
    line1: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Street and number' }),
    line2: Type.Optional(Text(200, 'Building, floor, suite')),
    city: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    postalCode: Type.Optional(Text(20, 'Postal code, where the country has them')),
    region: Type.Optional(Text(100, 'State, province or county, where the country uses one in addresses')),
    country: Country,
  },
  { additionalProperties: false, title: 'SellerAddress' },
);
export type SellerAddress = Static<typeof SellerAddress>;

export const TaxRegistrationInput = Type.Object(
  {
    country: Country,
    taxId: Type.String({ minLength: 2, maxLength: 40, description: 'The tax id as issued, e.g. DE136695976 (EU VAT), GB980780684, an Australian ABN' }),
  },
  { additionalProperties: false, title: 'TaxRegistrationInput' },
);

export const TaxRegistration = Type.Object(
  {
    country: Type.String(),
    taxId: Type.String({ description: 'Upper case, without spaces, dots or dashes' }),
    scheme: Type.Union([Type.String(), Type.Null()], {
      description: 'What the number is, where Billow knows the country\'s numbers (e.g. "German VAT Number"); null where it could check the format only',
    }),
  },
  { title: 'TaxRegistration' },
);
export type TaxRegistration = Static<typeof TaxRegistration>;

export const SellerProfile = Type.Object(
  {
    object: Type.Literal('seller_profile'),
    displayName: Type.String({ description: "The name buyers see; the organization's name until one is set" }),
    legalName: Type.Union([Type.String(), Type.Null()], { description: 'The legal entity that sells, as on invoices' }),
    address: Type.Union([
      Type.Object({
        line1: Type.String(),
        line2: Type.Union([Type.String(), Type.Null()]),
        city: Type.String(),
        postalCode: Type.Union([Type.String(), Type.Null()]),
        region: Type.Union([Type.String(), Type.Null()]),
        country: Type.String(),
      }),
      Type.Null(),
    ]),
    taxRegistrations: Type.Array(TaxRegistration),
    supportEmail: Type.Union([Type.String(), Type.Null()]),
    supportUrl: Type.Union([Type.String(), Type.Null()]),
    websiteUrl: Type.Union([Type.String(), Type.Null()]),
    termsUrl: Type.Union([Type.String(), Type.Null()]),
    privacyUrl: Type.Union([Type.String(), Type.Null()]),
    refundPolicyUrl: Type.Union([Type.String(), Type.Null()]),
    brandColor: Type.Union([Type.String(), Type.Null()], { description: '#RRGGBB' }),
    logoUrl: Type.Union([Type.String(), Type.Null()], { description: 'Where Billow serves the logo (set with logoImageKey); null without one' }),
    invoicePrefix: Type.Union([Type.String(), Type.Null()], { description: 'What invoice numbers start with, e.g. ACME (ACME-2026-000042)' }),
    defaultLanguage: Type.Union([Type.Literal('en'), Type.Literal('de'), Type.Literal('fr'), Type.Literal('es'), Type.Literal('ja')]),
    timeZone: Type.String({ description: 'IANA time zone of dates on documents, e.g. Europe/Berlin' }),
    version: Type.Integer({ description: 'Counts the updates; 0 until the first' }),
    updatedOn: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'SellerProfile' },
);
export type SellerProfile = Static<typeof SellerProfile>;

export const SellerProfileUpdate = Type.Object(
  {
    displayName: Type.Optional(Text(100, 'The name buyers see; null: the organization\'s name')),
    legalName: Type.Optional(Text(200, 'The legal entity that sells')),
    address: Type.Optional(Type.Union([SellerAddress, Type.Null()])),
    taxRegistrations: Type.Optional(Type.Array(TaxRegistrationInput, { maxItems: 20, description: 'Replaces the list; at most one per country' })),
    supportEmail: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()])),
    supportUrl: Type.Optional(Url('Where buyers get help')),
    websiteUrl: Type.Optional(Url("The seller's site; the portal links back to it")),
    termsUrl: Type.Optional(Url('Terms of sale')),
    privacyUrl: Type.Optional(Url('Privacy policy')),
    refundPolicyUrl: Type.Optional(Url('Refund policy')),
    brandColor: Type.Optional(Type.Union([Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB' }), Type.Null()])),
    logoImageKey: Type.Optional(
      Type.Union([
        Type.String({ minLength: 1, maxLength: 1024, description: 'A fileKey from POST /media/ holding a PNG or JPEG of at most 256 KiB, 16 to 2000 px a side' }),
        Type.Null(),
      ], { description: 'Sets the logo from an upload; null removes it' }),
    ),
    invoicePrefix: Type.Optional(
      Type.Union([
        Type.String({
          pattern: '^[A-Z0-9](?:[A-Z0-9-]{0,10}[A-Z0-9])?$',
          description: '1 to 12 upper-case letters, digits and inner dashes',
        }),
        Type.Null(),
      ]),
    ),
    defaultLanguage: Type.Optional(Type.Union(SELLER_LANGUAGES.map((l) => Type.Literal(l)))),
    timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin' })),
  },
  { additionalProperties: false, minProperties: 1, title: 'SellerProfileUpdate' },
);
export type SellerProfileUpdate = Static<typeof SellerProfileUpdate>;
