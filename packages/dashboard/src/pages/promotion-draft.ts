/**
 * A promotion's form as what a person types, and the PATCH of what they changed: percentages
 * as text (the API refuses what is not a whole 0–100, beside its field), overrides as rows,
 * the plan scope as a set (empty: every plan), banner and security field by field.
 */
import type { Promotion, PromotionBanner, PromotionSecurityToggles, PromotionUpdate } from '@billow/contract';

export const GROUPS = [1, 2, 3, 4, 5] as const;
export const CHECKS = ['vpn', 'tor', 'proxy', 'relay', 'crawler', 'billingCountry'] as const satisfies ReadonlyArray<keyof PromotionSecurityToggles>;
export const COLOR_FIELDS = ['backgroundColor', 'fontColor', 'highlightFontColor'] as const;
export const LENGTH_FIELDS = ['fontSize', 'borderRadius'] as const;

export interface OverrideRow {
  /** Keeps a row's inputs (and their focus) as rows above it are removed. */
  key: number;
  countryCode: string;
  percentage: string;
}

export interface PromotionDraft {
  name: string;
  couponCode: string;
  groups: string[];
  overrides: OverrideRow[];
  /** Empty: every published plan of the product. */
  plans: string[];
  message: string;
  banner: PromotionBanner;
  security: PromotionSecurityToggles;
  enabled: boolean;
}

let rows = 0;
export const overrideRow = (countryCode = '', percentage = ''): OverrideRow => ({ key: ++rows, countryCode, percentage });

export function draftOf(promotion: Promotion): PromotionDraft {
  return {
    name: promotion.name,
    couponCode: promotion.couponCode ?? '',
    groups: GROUPS.map((group) => String(promotion.pppDiscounts.find((d) => d.group === group)?.percentage ?? 0)),
    overrides: promotion.countryOverrides.map((o) => overrideRow(o.countryCode, String(o.percentage))),
    plans: promotion.planIdentifiers ?? [],
    message: promotion.message,
    banner: { ...promotion.banner },
    security: { ...promotion.security },
    enabled: promotion.enabled,
  };
}

/** A typed percentage as a number when it is one; otherwise as typed, for the API to refuse in its own words. */
export function percentOf(text: string): number | string {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function changedFields<T extends object>(draft: T, saved: T): Partial<T> | undefined {
  const changed = Object.fromEntries(Object.entries(draft).filter(([name, value]) => !same(value, saved[name as keyof T])));
  return Object.keys(changed).length > 0 ? (changed as Partial<T>) : undefined;
}

/** The fields the person changed, as the API takes them; empty when nothing changed. */
export function patchOf(draft: PromotionDraft, saved: Promotion): PromotionUpdate {
  const patch: Record<string, unknown> = {};
  if (draft.name !== saved.name) patch.name = draft.name;
  const coupon = draft.couponCode.trim() || null;
  if (coupon !== saved.couponCode) patch.couponCode = coupon;
  const groups = GROUPS.map((group, i) => ({ group, percentage: percentOf(draft.groups[i] ?? '') }));
  if (!same(groups, saved.pppDiscounts)) patch.pppDiscounts = groups;
  const overrides = draft.overrides.map((o) => ({ countryCode: o.countryCode, percentage: percentOf(o.percentage) }));
  if (!same(overrides, saved.countryOverrides)) patch.countryOverrides = overrides;
  const plans = draft.plans.length > 0 ? draft.plans : null;
  if (!same(plans, saved.planIdentifiers)) patch.planIdentifiers = plans;
  if (draft.message !== saved.message) patch.message = draft.message;
  const banner = changedFields(draft.banner, saved.banner);
  if (banner) patch.banner = banner;
  const security = changedFields(draft.security, saved.security);
  if (security) patch.security = security;
  if (draft.enabled !== saved.enabled) patch.enabled = draft.enabled;
  return patch as PromotionUpdate;
}

export type BannerPart = { text: string; highlight: boolean };

/** The paths of the API's fields the form shows, each beside its own refusal. */
export function shownFields(draft: PromotionDraft): Set<string> {
  const groups = GROUPS.map((_, i) => `pppDiscounts[${i}].percentage`);
  const overrides = draft.overrides.flatMap((_, i) => [`countryOverrides[${i}].countryCode`, `countryOverrides[${i}].percentage`]);
  const banner = [...COLOR_FIELDS, ...LENGTH_FIELDS, 'countryMessage'].map((name) => `banner.${name}`);
  return new Set(['name', 'couponCode', 'planIdentifiers', 'pppDiscounts', 'message', ...groups, ...overrides, ...banner]);
}

/**
 * The banner's text with its placeholders filled in, cut into plain and highlighted parts:
 * `<b>…</b>` is the one piece of markup the promotions UI's banner gives a meaning (the
 * highlight colour); every other character is text, which React escapes.
 */
export function bannerParts(template: string, values: { country: string; flag: string; code: string; percentage: number }): BannerPart[] {
  const filled = template.replace(/\{(country|country_flag|coupon_code|code|discount_percentage|discount)\}/g, (_, name: string) => {
    if (name === 'country') return values.country;
    if (name === 'country_flag') return values.flag;
    if (name === 'coupon_code' || name === 'code') return values.code;
    return String(values.percentage);
  });
  return filled.split(/<b>(.*?)<\/b>/gs).map((text, i) => ({ text, highlight: i % 2 === 1 })).filter((part) => part.text !== '');
}

/** 🇮🇳 from IN. */
export function countryFlag(code: string): string {
  return /^[A-Z]{2}$/.test(code) ? String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65)) : '';
}
