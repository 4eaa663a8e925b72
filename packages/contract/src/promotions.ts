import { Type, type Static } from 'typebox';
import { PageQuery, Paginated, Timestamp } from './common.js';

// Promotions (location pricing): GET /promotions on the Edge API (DOMAIN.md §2.15),
// and a management API of ours (/promotion-rules/), which the reference leaves to its dashboard.

/** The purchasing-power groups, from the most expensive countries (1) to the least (5). */
export const PPP_GROUPS = [1, 2, 3, 4, 5] as const;
export type PppGroup = (typeof PPP_GROUPS)[number];

/** The checks a promotion may run on a visitor; true = flagged. */
export const PROMOTION_CHECKS = ['vpn', 'tor', 'proxy', 'relay', 'crawler'] as const;

const Percentage = Type.Integer({ minimum: 0, maximum: 100, description: 'Whole percent off, 0 to 100' });
const CountryCode = Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2, any case' });
const CssValue = (example: string) => Type.String({ maxLength: 32, description: `A CSS value, e.g. ${example}` });
const Color = Type.String({ maxLength: 32, description: 'A CSS colour, e.g. #3182CE' });

export const PromotionBanner = Type.Object(
  {
    backgroundColor: Color,
    fontColor: Color,
    highlightFontColor: Color,
    fontSize: CssValue('1rem'),
    borderRadius: CssValue('0'),
    placement: Type.Union([Type.Literal('top'), Type.Literal('bottom')]),
    unStyled: Type.Boolean(),
    addCloseIcon: Type.Boolean(),
    countryMessage: Type.String({
      maxLength: 1000,
      description:
        'The banner text, returned verbatim: the promotions UI fills in {country}, {country_flag}, {coupon_code} and ' +
        '{discount_percentage}. Seller text: the page that shows it must treat it as such',
    }),
  },
  { title: 'PromotionBanner' },
);
export type PromotionBanner = Static<typeof PromotionBanner>;

export const PromotionBannerInput = Type.Partial(PromotionBanner, { additionalProperties: false, title: 'PromotionBannerInput' });
export type PromotionBannerInput = Static<typeof PromotionBannerInput>;

export const PromotionSecurityToggles = Type.Object(
  {
    vpn: Type.Boolean(),
    tor: Type.Boolean(),
    proxy: Type.Boolean(),
    relay: Type.Boolean({ description: 'Apple Private Relay' }),
    crawler: Type.Boolean(),
    billingCountry: Type.Boolean({
      description: 'Strict billing-country match: at checkout and in the product offering, a buyer whose billing country is not the located country gets no discount',
    }),
  },
  { title: 'PromotionSecurityToggles', description: 'Which checks run (all on by default): a flagged visitor gets no discount' },
);
export type PromotionSecurityToggles = Static<typeof PromotionSecurityToggles>;
export const PromotionSecurityInput = Type.Partial(PromotionSecurityToggles, { additionalProperties: false });

export const PppDiscount = Type.Object(
  {
    group: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3), Type.Literal(4), Type.Literal(5)], { description: 'A purchasing-power group (GET /promotion-rules/ppp-groups/)' }),
    percentage: Percentage,
  },
  { additionalProperties: false, title: 'PppDiscount' },
);
export type PppDiscount = Static<typeof PppDiscount>;

export const CountryOverride = Type.Object(
  { countryCode: CountryCode, percentage: Percentage },
  { additionalProperties: false, title: 'CountryOverride' },
);
export type CountryOverride = Static<typeof CountryOverride>;

const Name = Type.String({ minLength: 1, maxLength: 255 });
const CouponCode = Type.Union([Type.String({ minLength: 1, maxLength: 50, description: 'Letters, digits, - and _' }), Type.Null()], {
  description: 'The code a discounted visitor is given (the discount itself is defined at checkout)',
});
const MessageTemplate = Type.String({
  maxLength: 1000,
  description:
    'Plain text returned as `message` to a discounted visitor, with {country}, {country_flag}, {coupon_code} (or {code}) and ' +
    '{discount_percentage} (or {discount}) filled in; empty by default',
});
const PlanIdentifiers = Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 }), Type.Null()], {
  description: 'Published plans of the product the promotion is for; null or omitted: all of them',
});

export const Promotion = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The promotion_id of GET /promotions' }),
    object: Type.Literal('promotion'),
    name: Type.String(),
    productId: Type.String({ format: 'uuid' }),
    planIdentifiers: Type.Union([Type.Array(Type.String()), Type.Null()]),
    pppDiscounts: Type.Array(PppDiscount, { description: 'One entry per group, 1 to 5' }),
    countryOverrides: Type.Array(CountryOverride, { description: 'Win over the groups; sorted by country' }),
    couponCode: Type.Union([Type.String(), Type.Null()]),
    message: Type.String(),
    banner: PromotionBanner,
    security: PromotionSecurityToggles,
    enabled: Type.Boolean({ description: 'A disabled promotion answers GET /promotions with no discount' }),
    archivedOn: Type.Union([Timestamp, Type.Null()], { description: 'An archived promotion answers GET /promotions with 404' }),
    createdOn: Timestamp,
    modifiedOn: Timestamp,
  },
  { title: 'Promotion' },
);
export type Promotion = Static<typeof Promotion>;

const writable = {
  planIdentifiers: Type.Optional(PlanIdentifiers),
  pppDiscounts: Type.Optional(Type.Array(PppDiscount, { maxItems: PPP_GROUPS.length, description: 'Groups left out get 0' })),
  countryOverrides: Type.Optional(Type.Array(CountryOverride, { maxItems: 250 })),
  couponCode: Type.Optional(CouponCode),
  message: Type.Optional(MessageTemplate),
  banner: Type.Optional(PromotionBannerInput),
  security: Type.Optional(PromotionSecurityInput),
  enabled: Type.Optional(Type.Boolean()),
};

export const PromotionCreate = Type.Object(
  { name: Name, productId: Type.String({ minLength: 1, maxLength: 255, description: "The product's id or identifier" }), ...writable },
  { additionalProperties: false, title: 'PromotionCreate' },
);
export type PromotionCreate = Static<typeof PromotionCreate>;

export const PromotionUpdate = Type.Object(
  { name: Type.Optional(Name), ...writable },
  {
    additionalProperties: false,
    title: 'PromotionUpdate',
    description: 'Fields left out keep their value; banner and security merge field by field; lists replace',
  },
);
export type PromotionUpdate = Static<typeof PromotionUpdate>;

export const PromotionPath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const PromotionListQuery = Type.Object({
  ...PageQuery.properties,
  product_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Only the promotions of this product (its id)' })),
  archived: Type.Optional(Type.Boolean({ description: 'true: only archived promotions; false (default): only live ones' })),
});
export type PromotionListQuery = Static<typeof PromotionListQuery>;

/** GET /promotion-rules/{id}/preview/?country=: what GET /promotions would answer a visitor from that country. */
export const PromotionPreviewQuery = Type.Object({
  country: Type.String({ minLength: 2, maxLength: 2, description: "The visitor's country, ISO 3166-1 alpha-2 (any case)" }),
});
export type PromotionPreviewQuery = Static<typeof PromotionPreviewQuery>;
export const PromotionList = Paginated(Promotion, 'PromotionList');

export const PppGroupList = Type.Object(
  {
    groups: Type.Array(
      Type.Object({
        group: Type.Integer(),
        description: Type.String(),
        countries: Type.Array(Type.String(), { description: 'ISO 3166-1 alpha-2 codes' }),
      }),
    ),
    source: Type.String(),
  },
  { title: 'PppGroupList' },
);

// The Edge API: GET /promotions?promotion_id=… (DOMAIN.md §2.15).

export const PromotionQuery = Type.Object({
  promotion_id: Type.String({ minLength: 1, maxLength: 255, description: 'The promotion id (GET /promotion-rules/)' }),
});
export type PromotionQuery = Static<typeof PromotionQuery>;

export const PromotionWidget = Type.Object(
  { type: Type.Literal('BANNER'), ...PromotionBanner.properties },
  { title: 'PromotionWidget' },
);

export const PromotionResponse = Type.Object(
  {
    country: Type.String({ description: "The visitor's country, in English; empty when it cannot be located" }),
    countryCode: Type.String({ description: 'ISO 3166-1 alpha-2; empty when the visitor cannot be located' }),
    percentage: Type.Number({ description: 'Percent off for the visitor; 0: no discount' }),
    code: Type.String({ description: 'The coupon code; empty when there is no discount' }),
    message: Type.String(),
    widgets: Type.Array(PromotionWidget),
    security: Type.Object(
      { vpn: Type.Boolean(), tor: Type.Boolean(), proxy: Type.Boolean(), relay: Type.Boolean(), crawler: Type.Boolean() },
      { description: 'true: the check flagged the visitor (then percentage is 0 and code empty)' },
    ),
  },
  { title: 'PromotionResponse' },
);
export type PromotionResponse = Static<typeof PromotionResponse>;
