import type { PppGroup } from '@billow/contract';

/**
 * Purchasing-power groups: which countries a promotion's group percentages apply to.
 *
 * Written for Billow from public knowledge of price levels: the World Bank's
 * International Comparison Program (ICP 2021) price level index, i.e. the PPP
 * conversion factor for GDP divided by the market exchange rate, with the United
 * States at 100. A country's group is the band its index falls in, rounded to the
 * nearest band where it sits on an edge or moves from year to year; small
 * territories follow the country whose currency and prices they share. This is
 * meant to be good enough to set a discount by, not exact: a seller who disagrees
 * about one country sets an override, which always wins.
 *
 * Countries listed in no group (a handful of territories and places without ICP
 * data) get no group discount; an override still applies to them.
 */
export const PPP_GROUP_SOURCE =
  'Bands of the World Bank ICP 2021 price level index (PPP conversion factor / exchange rate, US = 100), assigned by hand; see docs/decisions/0033-promotions.md';

interface GroupDefinition {
  group: PppGroup;
  description: string;
  countries: readonly string[];
}

export const PPP_GROUP_DEFINITIONS: readonly GroupDefinition[] = [
  {
    group: 1,
    description: 'Price level 90 or more (US = 100): the most expensive countries',
    countries: ['AU', 'BM', 'BS', 'CH', 'DK', 'IE', 'IL', 'IS', 'KY', 'LI', 'LU', 'MC', 'NO', 'SM', 'US', 'VG'],
  },
  {
    group: 2,
    description: 'Price level 70 to 90: most of Western Europe, Canada, Japan, Korea, Singapore, the Gulf',
    countries: [
      'AD', 'AE', 'AT', 'AW', 'BB', 'BE', 'CA', 'CW', 'DE', 'FI', 'FO', 'FR', 'GB', 'GG', 'GL', 'HK', 'IM', 'IT', 'JE',
      'JP', 'KR', 'KW', 'MT', 'NC', 'NL', 'NZ', 'PF', 'PR', 'QA', 'SE', 'SG', 'SX', 'TC',
    ],
  },
  {
    group: 3,
    description: 'Price level 50 to 70: southern and central Europe, Chile, Uruguay, China, Saudi Arabia',
    countries: [
      'AG', 'BH', 'BN', 'CL', 'CN', 'CR', 'CY', 'CZ', 'EE', 'ES', 'GR', 'HR', 'HU', 'KN', 'LC', 'LT', 'LV', 'MO', 'MV',
      'OM', 'PA', 'PL', 'PT', 'SA', 'SI', 'SK', 'TT', 'TW', 'UY', 'VC', 'GD', 'DM', 'SC',
    ],
  },
  {
    group: 4,
    description: 'Price level 35 to 50: most of Latin America, the Balkans, South Africa, Thailand, Malaysia',
    countries: [
      'AL', 'AM', 'AR', 'AZ', 'BA', 'BG', 'BO', 'BR', 'BW', 'BY', 'BZ', 'CO', 'CV', 'DO', 'EC', 'FJ', 'GA', 'GE', 'GT',
      'GY', 'HN', 'JM', 'JO', 'KZ', 'LB', 'MA', 'ME', 'MK', 'MN', 'MU', 'MX', 'MY', 'NA', 'NI', 'PE', 'PY', 'RO', 'RS',
      'RU', 'SR', 'SV', 'SZ', 'TH', 'TN', 'VE', 'WS', 'TO', 'XK', 'ZA', 'CI', 'SN', 'CM', 'IQ', 'IR', 'PS', 'LY',
    ],
  },
  {
    group: 5,
    description: 'Price level under 35: South Asia, most of Africa, Egypt, Turkey, Indonesia, Vietnam, Ukraine',
    countries: [
      'AF', 'AO', 'BD', 'BF', 'BI', 'BJ', 'BT', 'CD', 'CF', 'CG', 'DZ', 'EG', 'ER', 'ET', 'GH', 'GM', 'GN', 'GW', 'HT',
      'ID', 'IN', 'KE', 'KG', 'KH', 'KM', 'LA', 'LK', 'LR', 'LS', 'MD', 'MG', 'ML', 'MM', 'MR', 'MW', 'MZ', 'NE', 'NG',
      'NP', 'PG', 'PH', 'PK', 'RW', 'SB', 'SD', 'SL', 'SO', 'SS', 'ST', 'SY', 'TD', 'TG', 'TJ', 'TL', 'TM', 'TR', 'TZ',
      'UA', 'UG', 'UZ', 'VN', 'VU', 'YE', 'ZM', 'ZW', 'DJ', 'KI',
    ],
  },
];

const GROUP_OF = new Map<string, PppGroup>(
  PPP_GROUP_DEFINITIONS.flatMap(({ group, countries }) => countries.map((country) => [country, group] as const)),
);

/** The purchasing-power group of an ISO 3166-1 alpha-2 country (upper case), or null when it is in none. */
export function pppGroupOf(countryCode: string): PppGroup | null {
  return GROUP_OF.get(countryCode) ?? null;
}
