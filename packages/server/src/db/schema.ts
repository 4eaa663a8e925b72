import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date, Date>;
type Json<T> = ColumnType<T, string, string>;

export interface PartnersTable {
  id: string;
  name: string;
  created_at: Timestamp;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  owner_email: string | null;
  partner_id: string | null;
  partner_external_id: string | null;
  created_at: Timestamp;
  blocked_at: Generated<Date | null>;
  blocked_reason: Generated<string | null>;
}

export interface EnvironmentsTable {
  id: string;
  organization_id: string;
  kind: 'sandbox' | 'production';
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  kind: 'server' | 'client' | 'partner';
  organization_id: string | null;
  environment_id: string | null;
  partner_id: string | null;
  prefix: string;
  key_hash: string;
  /** What the seller called the key (keys made by the API or the dashboard); null otherwise. */
  name: string | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface CustomersTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  customer_id: string;
  name: string | null;
  email: string | null;
  details: Json<Record<string, unknown>>;
  metadata: Json<Record<string, unknown>>;
  billing_address: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: Timestamp;
  modified_at: Timestamp;
  archived_at: Timestamp | null;
  currency: Generated<string | null>;
  credit_minor: Generated<number>;
  test_clock_id: Generated<string | null>;
  /** Business tax ids (issue 27, item 5), checked when given: [{type, value, country, verification}]. */
  tax_ids: ColumnType<StoredTaxId[], string | undefined, string>;
  /** The customer's language tag (issue 28), null until set. */
  locale: string | null;
}

/** A customer's tax id as the customers table keeps it. */
export interface StoredTaxId {
  type: string;
  value: string;
  country: string;
  verification: { status: 'unchecked' | 'verified' | 'unavailable'; checkedOn: string | null; name: string | null };
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  request_hash: string;
  locked_until: Timestamp | null;
  /** The lease holder (db/lease-holder.ts) of a claim not answered yet. */
  holder: ColumnType<number | null, number | null | undefined, number | null>;
  response_status: number | null;
  response_body: string | null;
  created_at: Timestamp;
}

export interface ProductsTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  identifier: string;
  name: string;
  description: string;
  tax_code: string;
  created_at: Timestamp;
  modified_at: Timestamp;
  archived_at: Timestamp | null;
}

export interface ProductSettingsTable {
  product_id: string;
  environment_id: string;
  vpn: Generated<boolean>;
  tor: Generated<boolean>;
  proxy: Generated<boolean>;
  currency: string | null;
  product_url: string | null;
  modified_at: Timestamp;
}

export interface ProductImagesTable {
  id: string;
  environment_id: string;
  product_id: string;
  name: string | null;
  storage_key: string;
  content_type: string;
  size: ColumnType<string, number, number>;
  ordering: number;
  thumbnail: boolean;
  enabled: boolean;
  created_at: Timestamp;
}

export interface ProductFilesTable {
  id: string;
  environment_id: string;
  product_id: string;
  name: string;
  storage_key: string;
  content_type: string;
  size: ColumnType<string, number, number>;
  ordering: number;
  enabled: boolean;
  created_at: Timestamp;
}

export interface FeaturesTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  identifier: string;
  name: string;
  description: string;
  feature_type: 'BOOLEAN' | 'CUSTOMIZABLE' | 'METER';
  feature_details: Json<Record<string, unknown>>;
  meter: Json<Record<string, unknown>>;
  metadata: Json<Record<string, unknown>>;
  created_at: Timestamp;
  modified_at: Timestamp;
  archived_at: Timestamp | null;
}

export interface PlansTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  identifier: string;
  product_id: string;
  published_version: number | null;
  created_at: Timestamp;
  archived_at: Timestamp | null;
}

export interface PlanVersionsTable {
  id: string;
  environment_id: string;
  plan_id: string;
  version: number;
  name: string;
  description: string;
  metadata: Json<Record<string, unknown>>;
  is_visible: boolean;
  license: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  links: Json<Array<{ name: string; url: string }>>;
  ordering: number;
  created_at: Timestamp;
  modified_at: Timestamp;
  published_at: Timestamp | null;
  publish_options: ColumnType<Record<string, unknown> | null, string | null, string | null>;
}

export interface PlanPricesTable {
  id: string;
  environment_id: string;
  plan_version_id: string;
  position: number;
  price_type: 'FREE' | 'PAID' | 'CUSTOM';
  currency: string;
  free_trial: boolean;
  trial_period: number;
  enabled: boolean;
  tax_behavior: 'INCLUSIVE' | 'EXCLUSIVE' | 'UNSPECIFIED';
  charge_catalog_price: Json<unknown[]>;
}

export interface PlanEntitlementsTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  plan_version_id: string;
  feature_id: string;
  details: Json<Record<string, unknown>>;
}

export interface PlanFilesTable {
  plan_version_id: string;
  id: string;
  environment_id: string;
  name: string;
  storage_key: string;
  content_type: string;
  size: ColumnType<string, number, number>;
  ordering: number;
  enabled: boolean;
  created_at: Timestamp;
}

export interface MediaUploadsTable {
  id: string;
  environment_id: string;
  file_key: string;
  file_name: string;
  content_type: string;
  max_size: ColumnType<string, number, number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  uploaded_at: Timestamp | null;
  size: ColumnType<string | null, number | null, number | null>;
  stored_key: string | null;
  consumed_at: Timestamp | null;
  form_used_at: Timestamp | null;
}

export interface PaymentProvidersTable {
  environment_id: string;
  organization_id: string;
  provider: 'stripe';
  secret_key_sealed: string;
  secret_key_hint: string;
  webhook_secret_sealed: string;
  webhook_secret_hint: string;
  publishable_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProviderEventsTable {
  environment_id: string;
  event_id: string;
  type: string;
  received_at: Timestamp;
}

export interface InstanceSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

type Minor = ColumnType<number, number, number>;
/** A minor-unit column with a default in the database. */
type MinorDefault = ColumnType<number, number | undefined, number>;
type JsonIn<T> = ColumnType<T, string, string>;

export interface PaymentMethodsTable {
  id: Generated<number>;
  environment_id: string;
  customer_id: string;
  method_type: string;
  brand: string | null;
  last4: string | null;
  exp_month: number | null;
  exp_year: number | null;
  funding: string | null;
  country: string | null;
  provider_ref: string;
  status: 'succeeded' | 'requires_action';
  is_default: boolean;
  created_at: Timestamp;
  modified_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface SubscriptionsTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  customer_id: string;
  product_id: string;
  plan_id: string;
  plan_version_id: string;
  price_id: string;
  charge_period: string;
  currency: string;
  status: 'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'superseded';
  amount_minor: Minor;
  quantities: JsonIn<Record<string, number>>;
  start_date: Timestamp;
  current_period_start: Timestamp | null;
  current_period_end: Timestamp | null;
  trial_end: Timestamp | null;
  end_date: Timestamp | null;
  canceled_at: Timestamp | null;
  cancellation_reason: string | null;
  cancellation_feedback: string | null;
  cancellation_comment: string | null;
  payment_method_id: number | null;
  previous_subscription_id: string | null;
  pending_expires_at: Timestamp | null;
  /** Periods are counted from it (month ends and leap days stay anchored). */
  billing_anchor: Timestamp | null;
  /** A checkout's customAmount, charged again at every renewal (decision 0036). */
  custom_amount_minor: ColumnType<number | null, number | null | undefined, number | null>;
  custom_tax_behavior: ColumnType<'INCLUSIVE' | 'EXCLUSIVE' | null, 'INCLUSIVE' | 'EXCLUSIVE' | null | undefined, 'INCLUSIVE' | 'EXCLUSIVE' | null>;
  /** The promotion (location pricing) it was sold under, and its percentage, kept for renewals. */
  promotion_id: ColumnType<string | null, string | null | undefined, string | null>;
  promotion_percent: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export interface OrdersTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  customer_id: string;
  product_id: string;
  plan_id: string;
  plan_version_id: string;
  subscription_id: string | null;
  status: 'PENDING' | 'COMPLETE' | 'FAILED' | 'REFUNDED' | 'PARTIAL_REFUND' | 'CANCELLED' | 'FRAUDULENT';
  billing_type: 'ONE_TIME' | 'SUBSCRIPTION';
  charge_period: string;
  is_renewal: boolean;
  is_trial: boolean;
  currency: string;
  subtotal_minor: Minor;
  discount_minor: Minor;
  tax_minor: Minor;
  total_minor: Minor;
  credit_applied_minor: MinorDefault;
  refunded_minor: MinorDefault;
  tax_rate_bp: number;
  tax_behavior: string;
  tax_country: string | null;
  lines: JsonIn<unknown[]>;
  billing_address: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  payment_method_id: number | null;
  paid_at: Timestamp | null;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export interface OrderEventsTable {
  id: Generated<number>;
  environment_id: string;
  order_id: string;
  subscription_id: string | null;
  code: string;
  title: string;
  status: 'pending' | 'success' | 'failed';
  metadata: JsonIn<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface InvoicesTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  order_id: string;
  customer_id: string;
  status: 'OPEN' | 'PAID' | 'PAYMENT_FAILED';
  currency: string;
  subtotal_minor: Minor;
  discount_minor: Minor;
  tax_minor: Minor;
  total_minor: Minor;
  lines: JsonIn<unknown[]>;
  seller: JsonIn<Record<string, unknown>>;
  buyer: JsonIn<Record<string, unknown>>;
  issued_at: Timestamp;
  due_at: Timestamp | null;
  paid_at: Timestamp | null;
  modified_at: Timestamp;
  subscription_id: string | null;
  period_start: Timestamp | null;
  period_end: Timestamp | null;
  attempt_count: Generated<number>;
  next_attempt_at: Timestamp | null;
  failure_code: string | null;
  failure_message: string | null;
  last_method_id: number | null;
  /** The token of the invoice's payment link (decision 0035); null: born paid. */
  pay_token: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the payment link stops working (decision 0070): 30 days after the last failed attempt. */
  pay_token_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The gapless number of the seller's sequence (decision 0062), e.g. ACME-2026-000042; null before 20261201130000. */
  number: ColumnType<string | null, string | null | undefined, string | null>;
  /** Customer credit that paid part of the invoice, counted in discount_minor too (decision 0064). */
  credit_minor: MinorDefault;
  /** Why the invoice has its tax rate (standard, reverse_charge, ...); null before 20261202300000. */
  tax_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The buyer's tax id the decision relied on ({type, value, country}), or null. */
  buyer_tax_id: ColumnType<{ type: string; value: string; country: string } | null, string | null | undefined, string | null>;
}

export interface InvoiceNumberCountersTable {
  environment_id: string;
  year: number;
  last_number: number;
}

export interface CreditNoteNumberCountersTable {
  environment_id: string;
  year: number;
  last_number: number;
}

/** A credit note (decision 0065): what a settled refund or a plan change's unused time gives back, against an invoice. */
export interface CreditNotesTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  /** The gapless number of the seller's credit note sequence, e.g. ACME-CN-2026-000001. */
  number: string;
  reason: 'REFUND' | 'PRORATION';
  invoice_id: string | null;
  order_id: string | null;
  customer_id: string;
  refund_id: string | null;
  /** For a PRORATION: the subscription the change superseded. */
  subscription_id: string | null;
  currency: string;
  subtotal_minor: Minor;
  tax_minor: Minor;
  total_minor: Minor;
  lines: JsonIn<unknown[]>;
  tax_totals: JsonIn<unknown[]>;
  seller: JsonIn<Record<string, unknown>>;
  buyer: JsonIn<Record<string, unknown>>;
  issued_at: Timestamp;
}

export interface TestClocksTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  name: string | null;
  frozen_time: Timestamp;
  target_time: Timestamp;
  status: 'ready' | 'advancing' | 'internal_failure';
  failure: string | null;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface TransactionsTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  order_id: string;
  refund_id: string | null;
  transaction_type: 'CHARGE' | 'REFUND' | 'CHARGEBACK' | 'CHARGEBACK_REVERSAL' | 'CREDIT' | 'PAYOUT' | 'ADJUSTMENT';
  status: 'success' | 'failure' | 'pending';
  currency: string;
  amount_minor: Minor;
  fee_minor: Minor;
  fee_breakdown: JsonIn<unknown[]>;
  tax_minor: Minor;
  net_minor: Minor;
  payment_method_id: number | null;
  provider_ref: string | null;
  failure_reason: string | null;
  available_on: ColumnType<Date | null, string | null, string | null>;
  created_at: Timestamp;
}

export interface RefundsTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  order_id: string;
  amount_minor: Minor;
  currency: string;
  reason: string;
  internal_note: string | null;
  status: 'PENDING' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED';
  failure_reason: string | null;
  provider_ref: string | null;
  created_at: Timestamp;
  modified_at: Timestamp;
  /** The Idempotency-Key of the request that made it. */
  idempotency_scope: string | null;
  idempotency_key: string | null;
  /** The lease holder (db/lease-holder.ts) that recorded it and asks the provider for it. */
  holder: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface LicensesTable {
  id: string;
  environment_id: string;
  customer_id: string;
  order_id: string;
  subscription_id: string | null;
  plan_version_id: string;
  license_key: string;
  activation_limit: number | null;
  activation_limit_enabled: boolean;
  expires_on: Timestamp | null;
  enabled: boolean;
  created_at: Timestamp;
}

export interface PaymentIntentsTable {
  id: string;
  environment_id: string;
  customer_id: string;
  kind: 'charge' | 'subscription_create' | 'subscription_update' | 'renewal' | 'invoice_payment' | 'checkout';
  status: 'processing' | 'succeeded' | 'failed' | 'reversed';
  amount_minor: Minor;
  currency: string;
  provider_key: string;
  provider_ref: string | null;
  payment_method_id: number | null;
  method_ref: string;
  description: string;
  plan_version_id: string;
  request: JsonIn<Record<string, unknown>>;
  result: JsonIn<Record<string, unknown>> | null;
  failure_code: string | null;
  failure_message: string | null;
  idempotency_scope: string | null;
  idempotency_key: string | null;
  created_at: Timestamp;
  settled_at: Timestamp | null;
  action_ref: ColumnType<string | null, string | null | undefined, string | null>;
  action_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The lease holder (db/lease-holder.ts) that recorded it, settling it. */
  holder: ColumnType<number | null, number | null | undefined, number | null>;
  /** The provider request as first sent (a ChargeRequest): every later attempt sends it again unchanged. Null before 20261130110000. */
  provider_request: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
}

export interface EventsTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  organization_id: string;
  type: string;
  payload: JsonIn<Record<string, unknown>>;
  created_at: Timestamp;
  /** Who caused it: null for the API and background work, `customer_portal` for the portal. */
  actor: Generated<string | null>;
  /** The customerId of the customer it is about (decision 0085); null: about no customer. */
  customer_id: Generated<string | null>;
}

export interface LicenseInstancesTable {
  id: string;
  environment_id: string;
  license_id: string;
  name: string;
  metadata: JsonIn<Record<string, unknown>>;
  created_at: Timestamp;
  last_validated_at: Timestamp | null;
  deactivated_at: Timestamp | null;
}

export interface UsageCountersTable {
  environment_id: string;
  subscription_id: string;
  feature_id: string;
  period_start: Timestamp;
  period_end: Timestamp | null;
  value: MinorDefault;
  rollover: MinorDefault;
  alerts_sent: ColumnType<unknown[], string | undefined, string>;
  updated_at: Timestamp;
}

export interface UsageReportsTable {
  id: string;
  seq: Generated<number>;
  environment_id: string;
  customer_id: string;
  feature_id: string;
  subscription_id: string | null;
  behaviour: 'SET' | 'DELTA';
  value: number;
  resource_id: string | null;
  client_idempotency_key: string | null;
  reported_at: Timestamp;
  created_at: Timestamp;
}

export interface UsageEventsTable {
  id: string;
  environment_id: string;
  customer_id: string;
  event_name: string;
  idempotency_key: string;
  occurred_at: Timestamp;
  properties: JsonIn<Record<string, unknown>>;
  resource_id: string | null;
  created_at: Timestamp;
}

export type JobState = 'pending' | 'running' | 'failed' | 'succeeded' | 'dead';

export interface WebhookEndpointsTable {
  id: string;
  environment_id: string;
  organization_id: string;
  url: string;
  description: string;
  event_types: string[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Timestamp | null;
  standard_signature: boolean;
  consecutive_failures: ColumnType<number, number | undefined, number>;
  failing_since: Timestamp | null;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  environment_id: string;
  endpoint_id: string;
  event_id: string;
  event_seq: string;
  event_type: string;
  ordering_key: string | null;
  status: DeliveryStatus;
  attempt_count: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp | null;
  lease_until: Timestamp | null;
  /** The lease holder (db/lease-holder.ts) of a delivery being sent. */
  holder: ColumnType<number | null, number | null | undefined, number | null>;
  last_attempt_at: Timestamp | null;
  created_at: Generated<Date>;
}

export interface WebhookAttemptsTable {
  id: string;
  environment_id: string;
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  event_created_at: Timestamp;
  retry_count: number;
  url: string;
  request_headers: JsonIn<Record<string, string>>;
  status_code: number | null;
  is_success: boolean;
  error: string | null;
  response_excerpt: string;
  duration_ms: number;
  attempted_at: Timestamp;
}

export interface JobsTable {
  id: Generated<number>;
  name: string;
  payload: JsonIn<Record<string, unknown>>;
  unique_key: string | null;
  state: JobState;
  run_at: Timestamp | null;
  attempts: Generated<number>;
  last_error: string | null;
  locked_by: string | null;
  locked_until: Timestamp | null;
  /** The lease holder (db/lease-holder.ts) of a running job. */
  holder: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Generated<Date>;
  finished_at: Timestamp | null;
}

export interface SchemaMigrationsTable {
  version: string;
  applied_at: Generated<Date>;
}

export type DiscountType = 'PERCENTAGE' | 'FIXED_AMOUNT';
export type DiscountDuration = 'ONCE' | 'REPEATING' | 'FOREVER';

export interface DiscountsTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  name: string;
  code: string;
  discount_type: DiscountType;
  /** Basis points (1..10000) for PERCENTAGE. */
  percent_off_bp: number | null;
  duration: DiscountDuration;
  duration_in_cycles: number | null;
  max_redemptions: number | null;
  times_redeemed: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp | null;
  plan_ids: string[];
  product_ids: string[];
  metadata: JsonIn<Record<string, unknown>>;
  created_at: Timestamp;
  modified_at: Timestamp;
  archived_at: Timestamp | null;
}

export interface DiscountAmountsTable {
  discount_id: string;
  currency: string;
  amount_minor: Minor;
}

export interface DiscountRedemptionsTable {
  id: string;
  environment_id: string;
  discount_id: string;
  customer_id: string;
  subscription_id: string | null;
  order_id: string | null;
  redeemed_at: Timestamp;
}

/**
 * Signed counts of the recurring live subscriptions (active, past_due) on each set of the
 * terms on their row, appended by triggers on subscriptions (decision 0090); summed per
 * terms, they are how many subscriptions have them.
 */
export interface SubscriptionMrrTermsTable {
  id: Generated<string>;
  environment_id: string;
  currency: string;
  charge_period: string;
  price_id: string;
  quantities: JsonIn<Record<string, number>>;
  custom_amount_minor: number | null;
  custom_tax_behavior: 'INCLUSIVE' | 'EXCLUSIVE' | null;
  promotion_percent: number | null;
  n: number;
}

/**
 * Every change of the terms a subscription's MRR is priced from, at the time of the
 * customer's clock, logged by deferred triggers on subscriptions and their discounts
 * (decision 0097); priced in order by the analytics job.
 */
export interface SubscriptionTermsLogTable {
  id: Generated<number>;
  environment_id: string;
  subscription_id: string;
  customer_id: string;
  /** The transaction that made the change (txid_current()). */
  tx: number;
  at: Timestamp;
  counts: boolean;
  currency: string;
  charge_period: string;
  price_id: string;
  quantities: JsonIn<Record<string, number>>;
  custom_amount_minor: number | null;
  custom_tax_behavior: 'INCLUSIVE' | 'EXCLUSIVE' | null;
  promotion_percent: number | null;
  discount_type: 'PERCENTAGE' | 'FIXED_AMOUNT' | null;
  percent_off_bp: number | null;
  discount_amount_minor: number | null;
  tax_rate_bp: number;
  priced: Generated<boolean>;
  /** In its trial (decision 0101): logged with no MRR, so that its start and its end are known. */
  trialing: Generated<boolean>;
  /** The subscription it follows after a plan change (decision 0101). */
  previous_subscription_id: string | null;
  /** The pay-as-you-go quantity of each feature its newest invoice billed (its last closed period); {} when none. */
  usage: ColumnType<Record<string, number>, string | undefined, string>;
}

/** A subscription's MRR as the terms log was last priced, in 336ths of a minor unit (numeric, read as text). */
export interface AnalyticsSubscriptionMrrTable {
  subscription_id: string;
  environment_id: string;
  customer_id: string;
  currency: string;
  parts: string;
  /** Which book (decision 0106): the whole business, a plan's or a product's. */
  dimension: ColumnType<'all' | 'plan' | 'product', 'all' | 'plan' | 'product' | undefined, 'all' | 'plan' | 'product'>;
  /** The plan's or the product's identifier; '' in the whole business's book. */
  segment: ColumnType<string, string | undefined, string>;
}

/** A customer's MRR in one currency as the terms log was last priced, and whether it was ever above 0. */
export interface AnalyticsCustomerMrrTable {
  environment_id: string;
  customer_id: string;
  currency: string;
  parts: string;
  ever_paid: boolean;
  /** Which book (decision 0106): the whole business, a plan's or a product's. */
  dimension: ColumnType<'all' | 'plan' | 'product', 'all' | 'plan' | 'product' | undefined, 'all' | 'plan' | 'product'>;
  /** The plan's or the product's identifier; '' in the whole business's book. */
  segment: ColumnType<string, string | undefined, string>;
}

/** One change of a customer's MRR in a currency: its kind and size, on the seller's day it happened. */
export interface AnalyticsMrrMovementsTable {
  id: Generated<number>;
  environment_id: string;
  customer_id: string;
  subscription_id: string;
  currency: string;
  at: Timestamp;
  /** The seller's local date (select it as text: a Date would be the machine's midnight). */
  day: ColumnType<Date, string, string>;
  kind: 'new' | 'expansion' | 'reactivation' | 'contraction' | 'churned';
  parts: string;
  customer_parts: string;
  log_id: number;
  /** Which book (decision 0106): the whole business, a plan's or a product's. */
  dimension: ColumnType<'all' | 'plan' | 'product', 'all' | 'plan' | 'product' | undefined, 'all' | 'plan' | 'product'>;
  /** The plan's or the product's identifier; '' in the whole business's book. */
  segment: ColumnType<string, string | undefined, string>;
}

/** A subscription's standing for the subscriber figures as the terms log was last priced (decision 0101). */
export interface AnalyticsSubscriptionStatesTable {
  subscription_id: string;
  environment_id: string;
  customer_id: string;
  currency: string;
  /** Its MRR is above 0. */
  active: boolean;
  trialing: boolean;
  /** Which book (decision 0107): the whole business, a plan's or a product's. */
  dimension: ColumnType<'all' | 'plan' | 'product', 'all' | 'plan' | 'product' | undefined, 'all' | 'plan' | 'product'>;
  /** The plan's or the product's identifier; '' in the whole business's book. */
  segment: ColumnType<string, string | undefined, string>;
}

export type SubscriptionEventKind = 'activated' | 'deactivated' | 'trial_started' | 'trial_converted' | 'trial_lapsed';

/** One change of the subscriber figures: a subscription became active or stopped being so, a trial started, converted or lapsed. */
export interface AnalyticsSubscriptionEventsTable {
  id: Generated<number>;
  environment_id: string;
  subscription_id: string;
  customer_id: string;
  currency: string;
  at: Timestamp;
  /** The seller's local date (select it as text). */
  day: ColumnType<Date, string, string>;
  kind: SubscriptionEventKind;
  log_id: number;
  /** Which book (decision 0107): the whole business, a plan's or a product's. */
  dimension: ColumnType<'all' | 'plan' | 'product', 'all' | 'plan' | 'product' | undefined, 'all' | 'plan' | 'product'>;
  /** The plan's or the product's identifier; '' in the whole business's book. */
  segment: ColumnType<string, string | undefined, string>;
}

/** The environment's reporting currency (decision 0102). */
export interface AnalyticsSettingsTable {
  environment_id: string;
  reporting_currency: string | null;
  modified_at: Timestamp;
}

/** A rate the seller set: one unit of from_currency is `rate` units of to_currency, exactly (numeric, read as text). */
export interface AnalyticsExchangeRatesTable {
  environment_id: string;
  from_currency: string;
  to_currency: string;
  rate: string;
  set_at: Timestamp;
  set_by: string;
}

/** What a payment, refund or failed invoice adds to the cash figures, appended by triggers (decision 0099); counts, and amounts in minor units. */
export interface AnalyticsCashLogTable {
  id: Generated<number>;
  environment_id: string;
  /** The order the payment, refund or failed invoice belongs to: its plan and product (decision 0107); null: the whole business's figures alone. */
  order_id: ColumnType<string | null, string | null | undefined, string | null>;
  currency: string;
  at: Timestamp;
  collected_count: ColumnType<number, number | undefined, number>;
  collected_minor: MinorDefault;
  refunded_count: ColumnType<number, number | undefined, number>;
  refunded_minor: MinorDefault;
  failed_count: ColumnType<number, number | undefined, number>;
  failed_minor: MinorDefault;
  recovered_count: ColumnType<number, number | undefined, number>;
  recovered_minor: MinorDefault;
  lost_count: ColumnType<number, number | undefined, number>;
  lost_minor: MinorDefault;
}

/** The cash figures of a seller's day, folded from the log by the analytics job. */
export interface AnalyticsCashDaysTable {
  environment_id: string;
  /** Which book (decision 0107): the whole business, a plan's or a product's. */
  dimension: ColumnType<'all' | 'plan' | 'product', 'all' | 'plan' | 'product' | undefined, 'all' | 'plan' | 'product'>;
  /** The plan's or the product's identifier; '' in the whole business's book. */
  segment: ColumnType<string, string | undefined, string>;
  currency: string;
  /** The seller's local date (select it as text). */
  day: ColumnType<Date, string, string>;
  collected_count: number;
  collected_minor: Minor;
  refunded_count: number;
  refunded_minor: Minor;
  failed_count: number;
  failed_minor: Minor;
  recovered_count: number;
  recovered_minor: Minor;
  lost_count: number;
  lost_minor: Minor;
}

export interface SubscriptionDiscountsTable {
  subscription_id: string;
  environment_id: string;
  discount_id: string;
  redemption_id: string;
  cycles_remaining: number | null;
  renewals_discounted: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
}

export interface PromotionsTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  name: string;
  product_id: string;
  plan_identifiers: string[] | null;
  ppp_discounts: Json<Array<{ group: number; percentage: number }>>;
  country_overrides: Json<Array<{ countryCode: string; percentage: number }>>;
  coupon_code: string | null;
  message: string;
  banner: Json<Record<string, unknown>>;
  security: Json<Record<string, boolean>>;
  enabled: boolean;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export type CheckoutStatus = 'open' | 'processing' | 'success' | 'expired';

export type CheckoutPurpose = 'purchase' | 'subscription_change' | 'invoice';

export interface CheckoutSessionsTable {
  id: string;
  seq: Generated<number>;
  environment_id: string;
  organization_id: string;
  environment: 'sandbox' | 'production';
  status: CheckoutStatus;
  attempt: ColumnType<number, number | undefined, number>;
  product_id: string;
  plan_identifier: string;
  charge_period: string;
  plans_enabled: string[] | null;
  customer_ref: string | null;
  customer_id: string | null;
  features: JsonIn<Array<{ identifier: string; quantity: number }>>;
  ip_address: string | null;
  currency_code: string | null;
  custom_amount_minor: number | null;
  tax_behavior: 'INCLUSIVE' | 'EXCLUSIVE' | null;
  discounts_enabled: boolean;
  discount_code: string | null;
  lock_email: boolean;
  default_billing_country: string | null;
  success_url: string;
  cancel_url: string | null;
  metadata: JsonIn<Record<string, unknown>>;
  offering_id: string | null;
  pricing_table_id: string | null;
  rule_id: string | null;
  email: string | null;
  name: string | null;
  billing_country: string | null;
  payment_method_id: number | null;
  order_id: string | null;
  invoice_id: string | null;
  subscription_id: string | null;
  amount_minor: number | null;
  currency: string | null;
  api_base: string;
  created_via: 'api' | 'buy_link' | 'subscription_update' | 'payment_link';
  /** What the session pays (decision 0035): a purchase, a pending activate_on_payment change, or an invoice. */
  purpose: ColumnType<CheckoutPurpose, CheckoutPurpose | undefined, CheckoutPurpose>;
  /** The pending subscription or the invoice a non-purchase session pays. */
  target_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The update a change session activates, as the update call received it. */
  change_request: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** Whether ip_address locates the buyer for promotions (a server key's, or a buy link's caller). */
  ip_trusted: ColumnType<boolean, boolean | undefined, boolean>;
  /** Whether customer_ref may name an existing customer (decision 0054): a server key's session, or Billow's own. */
  customer_trusted: ColumnType<boolean, boolean | undefined, boolean>;
  /** The promotion decided when the buyer paid, and its percentage. */
  promotion_id: ColumnType<string | null, string | null | undefined, string | null>;
  promotion_percent: ColumnType<number | null, number | null | undefined, number | null>;
  expires_at: Timestamp;
  completed_at: Timestamp | null;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export interface CheckoutSessionEventsTable {
  id: Generated<number>;
  session_id: string;
  code: string;
  title: string;
  status: 'pending' | 'success' | 'failed';
  metadata: JsonIn<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface Database {
  partners: PartnersTable;
  organizations: OrganizationsTable;
  environments: EnvironmentsTable;
  api_keys: ApiKeysTable;
  customers: CustomersTable;
  idempotency_keys: IdempotencyKeysTable;
  products: ProductsTable;
  product_settings: ProductSettingsTable;
  product_images: ProductImagesTable;
  product_files: ProductFilesTable;
  features: FeaturesTable;
  plans: PlansTable;
  plan_versions: PlanVersionsTable;
  plan_prices: PlanPricesTable;
  plan_entitlements: PlanEntitlementsTable;
  plan_files: PlanFilesTable;
  media_uploads: MediaUploadsTable;
  instance_secrets: InstanceSecretsTable;
  payment_providers: PaymentProvidersTable;
  provider_events: ProviderEventsTable;
  payment_methods: PaymentMethodsTable;
  subscriptions: SubscriptionsTable;
  orders: OrdersTable;
  order_events: OrderEventsTable;
  invoices: InvoicesTable;
  test_clocks: TestClocksTable;
  transactions: TransactionsTable;
  refunds: RefundsTable;
  licenses: LicensesTable;
  events: EventsTable;
  payment_intents: PaymentIntentsTable;
  license_instances: LicenseInstancesTable;
  usage_counters: UsageCountersTable;
  usage_reports: UsageReportsTable;
  usage_events: UsageEventsTable;
  jobs: JobsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  discounts: DiscountsTable;
  discount_amounts: DiscountAmountsTable;
  discount_redemptions: DiscountRedemptionsTable;
  subscription_discounts: SubscriptionDiscountsTable;
  subscription_mrr_terms: SubscriptionMrrTermsTable;
  subscription_terms_log: SubscriptionTermsLogTable;
  analytics_subscription_mrr: AnalyticsSubscriptionMrrTable;
  analytics_customer_mrr: AnalyticsCustomerMrrTable;
  analytics_mrr_movements: AnalyticsMrrMovementsTable;
  analytics_subscription_states: AnalyticsSubscriptionStatesTable;
  analytics_subscription_events: AnalyticsSubscriptionEventsTable;
  analytics_settings: AnalyticsSettingsTable;
  analytics_exchange_rates: AnalyticsExchangeRatesTable;
  analytics_cash_log: AnalyticsCashLogTable;
  analytics_cash_days: AnalyticsCashDaysTable;
  schema_migrations: SchemaMigrationsTable;
  promotions: PromotionsTable;
  checkout_sessions: CheckoutSessionsTable;
  portal_sessions: PortalSessionsTable;
  portal_submissions: PortalSubmissionsTable;
  checkout_session_events: CheckoutSessionEventsTable;
  mail_messages: MailMessagesTable;
  mail_attachments: MailAttachmentsTable;
  email_settings: EmailSettingsTable;
  mail_reminders: MailRemindersTable;
  portal_sign_ins: PortalSignInsTable;
  seller_profiles: SellerProfilesTable;
  invoice_number_counters: InvoiceNumberCountersTable;
  seller_logos: SellerLogosTable;
  credit_note_number_counters: CreditNoteNumberCountersTable;
  credit_notes: CreditNotesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  user_sessions: UserSessionsTable;
  account_tokens: AccountTokensTable;
  invitations: InvitationsTable;
  audit_log: AuditLogTable;
}

/** The seller's identity in one environment (modules/seller-profile); absent until first set. */
export interface SellerProfilesTable {
  environment_id: string;
  organization_id: string;
  display_name: string | null;
  legal_name: string | null;
  address: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  tax_registrations: ColumnType<Array<{ country: string; taxId: string; scheme: string | null }>, string | undefined, string>;
  support_email: string | null;
  support_url: string | null;
  website_url: string | null;
  terms_url: string | null;
  privacy_url: string | null;
  refund_policy_url: string | null;
  brand_color: string | null;
  invoice_prefix: string | null;
  default_language: Generated<string>;
  time_zone: Generated<string>;
  version: number;
  created_at: Timestamp;
  modified_at: Timestamp;
  /** The current logo's digest (seller_logos); null without a logo. */
  logo_digest: string | null;
}

/** The seller's logo per environment, served by Billow and embedded in documents. */
export interface SellerLogosTable {
  environment_id: string;
  digest: string;
  content_type: string;
  width: number;
  height: number;
  bytes: Uint8Array;
  created_at: Timestamp;
}

export type MailStatus = 'inbox' | 'pending' | 'sending' | 'sent' | 'expired' | 'failed';

export interface MailMessagesTable {
  id: string;
  seq: Generated<string>;
  organization_id: string;
  environment_id: string;
  status: MailStatus;
  recipient: string;
  subject: string;
  body_text: string | null;
  created_at: Timestamp;
  send_before: Timestamp;
  locked_until: Timestamp | null;
  attempts: Generated<number>;
  last_error: string | null;
  sent_at: Timestamp | null;
  /** The business event a message was written for (decision 0067), and its kind (`receipt`). */
  event_id: ColumnType<string | null, string | null | undefined, string | null>;
  kind: ColumnType<string | null, string | null | undefined, string | null>;
  body_html: ColumnType<string | null, string | null | undefined, string | null>;
  /** The reminder a message was written for (decision 0071): one message each. */
  reminder_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** When what the message tells happened, by the environment's clock (a test clock's simulated instant). */
  occurred_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The sender's name on the From line, where replies go, and the List-Unsubscribe target (decision 0075); null: none. */
  from_name: ColumnType<string | null, string | null | undefined, string | null>;
  reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  list_unsubscribe: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Which emails buyers get in an environment (decision 0067); no row: all of them. */
export interface EmailSettingsTable {
  environment_id: string;
  receipt: Generated<boolean>;
  refund: Generated<boolean>;
  payment_failed: Generated<boolean>;
  subscription_ended: Generated<boolean>;
  payment_retry_failed: Generated<boolean>;
  cancelled_unpaid: Generated<boolean>;
  subscription_cancelled: Generated<boolean>;
  cancellation_scheduled: Generated<boolean>;
  trial_ending: Generated<boolean>;
  upcoming_renewal: Generated<boolean>;
  card_expiring: Generated<boolean>;
  /** Days before what they announce that the timed reminders are sent (decision 0071). */
  trial_ending_days: Generated<number>;
  upcoming_renewal_days: Generated<number>;
  card_expiring_days: Generated<number>;
  updated_at: Timestamp;
}

/** A timed reminder of a subscription (decision 0071): one per (subscription, kind, occasion). */
export interface MailRemindersTable {
  id: string;
  organization_id: string;
  environment_id: string;
  subscription_id: string;
  kind: 'trial_ending' | 'upcoming_renewal' | 'card_expiring';
  /** The instant the reminder announces (the trial's end, the renewal). */
  occasion: Timestamp;
  /** When it fell due, by the subscription's clock. */
  due_at: Timestamp;
  facts: ColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
}

/** Files an email carries (decision 0067). */
export interface MailAttachmentsTable {
  message_id: string;
  position: number;
  file_name: string;
  content_type: string;
  bytes: Uint8Array;
}

export interface PortalSignInsTable {
  id: string;
  organization_id: string;
  environment_id: string;
  email: string;
  code_hash: string;
  browser_hash: string;
  client_address: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  attempts: Generated<number>;
  verified_at: Timestamp | null;
  used_at: Timestamp | null;
}

export interface PortalSessionsTable {
  id: string;
  environment_id: string;
  organization_id: string;
  customer_id: string;
  email: string;
  secret_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface PortalSubmissionsTable {
  session_id: string;
  nonce: string;
  created_at: Timestamp;
}

export type MemberRole = 'owner' | 'admin' | 'developer' | 'support' | 'viewer';

export interface UsersTable {
  id: string;
  email: string;
  name: Generated<string>;
  password_hash: string | null;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_enabled: Generated<boolean>;
  failed_sign_ins: Generated<number>;
  locked_until: Timestamp | null;
  /** The dashboard's language the person chose; null follows the browser (decision 0108). */
  language: DashboardLanguage | null;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export type DashboardLanguage = 'en' | 'de' | 'fr' | 'es' | 'ja';

export interface MembershipsTable {
  id: string;
  organization_id: string;
  user_id: string;
  role: MemberRole;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export interface UserSessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  client_address: string;
  user_agent: Generated<string>;
}

export interface AccountTokensTable {
  token_hash: string;
  kind: 'sign_in' | 'password_reset';
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface InvitationsTable {
  id: string;
  organization_id: string;
  email: string;
  role: MemberRole;
  token_hash: string;
  invited_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface AuditLogTable {
  id: string;
  seq: Generated<string>;
  organization_id: string;
  environment_id: string | null;
  actor_type: 'user' | 'api_key';
  actor_id: string;
  actor_label: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  before: Json<Record<string, unknown>> | null;
  after: Json<Record<string, unknown>> | null;
  client_address: string;
  created_at: Timestamp;
}
