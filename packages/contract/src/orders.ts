import { Type, type Static } from 'typebox';
import { Plan, Product } from './catalog.js';
import { CappedPaginated, CountQuery, ListSort, NullableString, PageQuery, Paginated, SearchQuery, Timestamp } from './common.js';
import { BillingAddress } from './customers.js';

// Orders and their timelines, invoices, transactions and refunds: the money records.
// Amounts: decimal strings for orders and invoices, numbers in major units for
// transactions and refunds (as the reference has them), and always the exact
// integer in minor units beside them (`...Units`).

export const ORDER_STATUSES = ['PENDING', 'COMPLETE', 'FAILED', 'REFUNDED', 'PARTIAL_REFUND', 'CANCELLED', 'FRAUDULENT'] as const;
export const BILLING_TYPES = ['ONE_TIME', 'SUBSCRIPTION'] as const;
export const ORDER_EVENT_STATUSES = ['pending', 'success', 'failed'] as const;
export const INVOICE_STATUSES = ['OPEN', 'PAID', 'PAYMENT_FAILED'] as const;
export const TRANSACTION_STATUSES = ['success', 'failure', 'pending'] as const;
export const TRANSACTION_TYPES = [
  'CHARGE',
  'REFUND',
  'CHARGEBACK',
  'CHARGEBACK_REVERSAL',
  'CREDIT',
  'PAYOUT',
  'ADJUSTMENT',
] as const;
export const REFUND_STATUSES = ['PENDING', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELED'] as const;
/** What a caller may give; DASHBOARD_INITIATED also appears on refunds made elsewhere. */
export const REFUND_REASONS = ['DUPLICATE', 'FRAUDULENT', 'REQUESTED_BY_CUSTOMER', 'OTHER'] as const;
export const REFUND_REASONS_OUT = ['DUPLICATE', 'DASHBOARD_INITIATED', 'FRAUDULENT', 'REQUESTED_BY_CUSTOMER', 'OTHER'] as const;

const Decimal = (description: string) => Type.String({ description: `${description}, as a decimal string such as "261.00"` });
const Units = (description: string) => Type.Integer({ description: `${description}, in the currency's minor unit` });
const Major = (description: string) =>
  Type.Number({ description: `${description}, in major units (a number); the exact value is in the matching ...Units field` });

const DateFilter = (description: string) =>
  Type.Optional(
    Type.String({ maxLength: 40, description: `${description}: a date (YYYY-MM-DD, whole day in UTC) or an ISO 8601 date-time` }),
  );

// Orders

export const OrderCustomer = Type.Object(
  {
    customerId: Type.String({ description: "The seller's own identifier for the customer" }),
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'OrderCustomer' },
);

export const OrderLicense = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    licenseKey: Type.String(),
    activatedOn: Type.Union([Timestamp, Type.Null()]),
    expiresOn: Type.Union([Timestamp, Type.Null()]),
    activationUsage: Type.Integer({ description: 'Instances active now' }),
    activationLimit: Type.Union([Type.Integer(), Type.Null()], { description: 'null: unlimited' }),
    enabled: Type.Boolean(),
  },
  { title: 'OrderLicense' },
);
export type OrderLicense = Static<typeof OrderLicense>;

export const OrderSubscriptionSummary = Type.Object(
  {
    id: Type.Optional(Type.String({ format: 'uuid' })),
    status: Type.Optional(Type.String()),
    amount: Type.Optional(Type.String({ description: 'What one period costs, as a decimal string' })),
    currency: Type.Optional(Type.String({ description: 'Lower case, e.g. "usd", as the reference shows' })),
    interval: Type.Optional(Type.String({ description: 'day, week, month or year' })),
    currencySymbol: Type.Optional(Type.String()),
    nextInvoiceDate: Type.Optional(Type.Union([Timestamp, Type.Null()])),
  },
  {
    title: 'OrderSubscriptionSummary',
    description: 'The subscription the order belongs to; an empty object when it belongs to none',
  },
);
export type OrderSubscriptionSummary = Static<typeof OrderSubscriptionSummary>;

export const OrderPaymentMethod = Type.Object(
  {
    paymentMethodType: Type.String({ description: 'card, …' }),
    paymentMethodName: Type.Union([Type.String(), Type.Null()], { description: 'For cards, the brand, e.g. visa' }),
    last4: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'OrderPaymentMethod' },
);
export type OrderPaymentMethod = Static<typeof OrderPaymentMethod>;

export const Order = Type.Object(
  {
    id: Type.String({ description: 'ORD-YYYYMMDDHHMMSS- and 10 upper-case letters or digits' }),
    customer: OrderCustomer,
    product: Product,
    status: Type.Enum([...ORDER_STATUSES]),
    paidAt: Type.Union([Timestamp, Type.Null()]),
    amountSubtotal: Decimal('Sum of the lines before discount (tax included for INCLUSIVE prices)'),
    amountDiscount: Decimal('Discount'),
    amountTax: Decimal('Tax'),
    amountTotal: Decimal('What the customer paid'),
    saleCurrency: Type.String({ description: 'ISO 4217 code' }),
    amountSubtotalUnits: Units('Subtotal'),
    amountDiscountUnits: Units('Discount'),
    amountTaxUnits: Units('Tax'),
    amountTotalUnits: Units('Total'),
    refundedTotalUnits: Units('Refunded so far'),
    saleCurrencySymbol: Type.String({ description: 'e.g. $, €, ¥' }),
    billingAddress: Type.Union([BillingAddress, Type.Null()]),
    plan: Plan,
    billingType: Type.Enum([...BILLING_TYPES]),
    license: Type.Array(OrderLicense),
    isTrial: Type.Boolean(),
    isRenewal: Type.Boolean({ description: 'A renewal of a subscription rather than its first purchase (Billow addition)' }),
    subscription: OrderSubscriptionSummary,
    invoiceId: Type.Union([Type.String(), Type.Null()], { description: 'INV-YYYYMMDDHHMMSS- and 10 upper-case letters or digits' }),
    customFieldsData: Type.Record(Type.String(), Type.Unknown()),
    paymentMethod: Type.Union([OrderPaymentMethod, Type.Null()], {
      description: "The method of the order's first successful payment; null when there is none",
    }),
    createdOn: Timestamp,
    modifiedOn: Timestamp,
  },
  { title: 'Order' },
);
export type Order = Static<typeof Order>;

/** Ours: the reference lists have no customer filter, only a free-text search. */
const CustomerFilter = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 255,
    description: "Only this customer's: their customerId (or the customer's UUID). An unknown customer gives an empty list.",
  }),
);

export const ORDER_SORTS = ['paidOn', 'createdOn', 'total'] as const;

export const OrderListQuery = Type.Object({
  ...PageQuery.properties,
  customer_id: CustomerFilter,
  search: Type.Optional(Type.String({ maxLength: 200, description: "Matches the order id and the customer's name, email and customerId" })),
  status: Type.Optional(Type.Enum([...ORDER_STATUSES])),
  billing_type: Type.Optional(Type.Enum([...BILLING_TYPES])),
  is_renewal: Type.Optional(Type.Boolean()),
  start_date: DateFilter('Orders paid on or after'),
  end_date: DateFilter('Orders paid on or before'),
  ...ListSort(ORDER_SORTS, 'newest paid first, then orders never paid'),
  ...CountQuery,
});
export type OrderListQuery = Static<typeof OrderListQuery>;

export const OrderPath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'The order id' }) });

export const OrderList = CappedPaginated(Order, 'OrderList');

export const OrderEvent = Type.Object(
  {
    id: Type.Integer(),
    order: Type.String({ description: 'The id of the order the event belongs to' }),
    title: Type.String(),
    code: Type.String({ description: 'e.g. order.created, order.completed, invoice.paid, refund.succeeded' }),
    status: Type.Enum([...ORDER_EVENT_STATUSES]),
    timestamp: Timestamp,
    metadata: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Depends on the code, e.g. {"primary": "+112.50", "secondary": "card ending 4242"}',
    }),
  },
  { title: 'OrderEvent' },
);
export type OrderEvent = Static<typeof OrderEvent>;

export const OrderEventList = Paginated(OrderEvent, 'OrderEventList');

// Invoices (a Billow addition: the reference has no invoice endpoints)

export const InvoiceLine = Type.Object(
  {
    description: Type.String(),
    quantity: Type.Integer(),
    featureId: Type.Union([Type.String(), Type.Null()], { description: 'The feature a usage line prices; null for the base charge' }),
    amount: Decimal('Line amount'),
    amountUnits: Units('Line amount'),
  },
  { title: 'InvoiceLine' },
);
export type InvoiceLine = Static<typeof InvoiceLine>;

export const TAX_REASONS = ['standard', 'reverse_charge', 'no_rate', 'no_country'] as const;

export const BuyerTaxId = Type.Object(
  { type: Type.String(), value: Type.String(), country: Type.String() },
  { title: 'BuyerTaxId' },
);

export const InvoiceCustomer = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    customerId: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'InvoiceCustomer' },
);

export const Invoice = Type.Object(
  {
    id: Type.String({ description: 'INV-YYYYMMDDHHMMSS- and 10 upper-case letters or digits' }),
    number: Type.Union([Type.String(), Type.Null()], {
      description:
        "Billow's addition: the invoice's number in the seller's gapless sequence, the seller profile's invoicePrefix, the year and a counter (ACME-2026-000042); null on invoices issued before numbering",
    }),
    status: Type.Enum([...INVOICE_STATUSES]),
    orderId: Type.String(),
    subscriptionId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    customer: InvoiceCustomer,
    currency: Type.String(),
    currencySymbol: Type.String(),
    amountSubtotal: Decimal('Subtotal'),
    amountDiscount: Decimal('Discount'),
    amountTax: Decimal('Tax'),
    amountTotal: Decimal('Total'),
    amountSubtotalUnits: Units('Subtotal'),
    amountDiscountUnits: Units('Discount'),
    amountTaxUnits: Units('Tax'),
    amountTotalUnits: Units('Total'),
    taxRate: Type.String({ description: 'Percentage, e.g. "20" or "8.25"' }),
    taxBehavior: Type.String({ description: 'INCLUSIVE or EXCLUSIVE' }),
    taxCountry: Type.Union([Type.String(), Type.Null()]),
    taxReason: Type.Union([Type.Enum([...TAX_REASONS]), Type.Null()], {
      description: 'Why the rate: standard (the billing country\'s), reverse_charge (an EU VAT id of another member state than the seller\'s: the buyer accounts for the VAT), no_rate, no_country; null on invoices issued before tax reasons',
    }),
    buyerTaxId: Type.Union([BuyerTaxId, Type.Null()], { description: "The buyer's tax id the tax decision relied on, or that the invoice prints" }),
    lines: Type.Array(InvoiceLine),
    seller: Type.Record(Type.String(), Type.Unknown(), { description: 'Who issued the invoice, as it was then' }),
    buyer: Type.Record(Type.String(), Type.Unknown(), { description: 'Whom the invoice is for, as it was then' }),
    issuedOn: Timestamp,
    dueDate: Type.Union([Timestamp, Type.Null()]),
    paidAt: Type.Union([Timestamp, Type.Null()]),
    modifiedOn: Timestamp,
    pdfUrl: Type.String({ description: 'GET it with the same key for the PDF' }),
    periodStart: Type.Union([Timestamp, Type.Null()], { description: 'The period a renewal invoice bills; null for a purchase' }),
    periodEnd: Type.Union([Timestamp, Type.Null()]),
    attemptCount: Type.Integer({ description: 'Attempts made to collect a renewal invoice (0 for a purchase)' }),
    nextPaymentAttempt: Type.Union([Timestamp, Type.Null()], { description: 'When dunning tries an unpaid renewal invoice again' }),
    lastPaymentError: Type.Union([Type.Object({ code: Type.String(), message: Type.Union([Type.String(), Type.Null()]) }), Type.Null()], {
      description: 'Why the last attempt to collect it failed',
    }),
    paymentLink: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description: "The hosted page where the customer pays this unpaid renewal invoice (the webhooks' payment_link); null for an invoice born paid",
    }),
  },
  { title: 'Invoice' },
);
export type Invoice = Static<typeof Invoice>;

export const INVOICE_SORTS = ['issuedOn', 'total', 'number'] as const;

export const InvoiceListQuery = Type.Object({
  ...PageQuery.properties,
  customer_id: CustomerFilter,
  status: Type.Optional(Type.Enum([...INVOICE_STATUSES])),
  search: SearchQuery("the invoice's number and id and the customer's name, email and customerId"),
  ...ListSort(INVOICE_SORTS, 'newest issued first'),
  ...CountQuery,
});
export type InvoiceListQuery = Static<typeof InvoiceListQuery>;

export const InvoicePath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'The invoice id' }) });

/** Billow extension: the language of a document (invoice or credit note PDF). */
export const DocumentQuery = Type.Object({
  language: Type.Optional(
    Type.String({
      maxLength: 35,
      description:
        "Billow extension: the document's language (en, de, fr, es, ja, or a tag such as de-AT). By default the customer's locale, else the seller's language. Japanese needs a Japanese font on the server; without one the document is in English.",
    }),
  ),
});

export const InvoiceList = CappedPaginated(Invoice, 'InvoiceList');

// Transactions

export const MorFeeComponent = Type.Object(
  {
    name: Type.String({ description: 'base_fee, fixed_fee, international_fee, subscription_fee, conversion_fee or fee_adjustment' }),
    percentage: Type.Union([Type.String(), Type.Null()], { description: 'e.g. "2.9"; null for fixed amounts' }),
    valueUnits: Type.Integer(),
    currency: Type.String(),
  },
  { title: 'MorFeeComponent' },
);

export const Transaction = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    order: Order,
    createdOn: Timestamp,
    currency: Type.String(),
    currencySymbol: Type.String(),
    amountTotal: Major('Gross amount; negative for refunds'),
    morFee: Major('Merchant-of-record fee'),
    morFeeBreakdown: Type.Array(MorFeeComponent, { description: 'Empty when no fee applies' }),
    collectedTax: Major('Tax collected (negative when given back)'),
    netPayout: Major('amountTotal − morFee − collectedTax'),
    amountTotalUnits: Units('Gross amount'),
    morFeeUnits: Units('Fee'),
    collectedTaxUnits: Units('Tax'),
    netPayoutUnits: Units('Net'),
    status: Type.Enum([...TRANSACTION_STATUSES]),
    transactionType: Type.Enum([...TRANSACTION_TYPES]),
    paymentMethodType: Type.Union([Type.String(), Type.Null()]),
    paymentMethodName: Type.Union([Type.String(), Type.Null()]),
    last4: Type.Union([Type.String(), Type.Null()]),
    availableOn: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'When the money reaches the balance' }),
    isSettled: Type.Boolean({ description: 'availableOn is today or earlier' }),
    refundId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'For REFUND transactions, the refund' }),
    failureReason: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'Transaction' },
);
export type Transaction = Static<typeof Transaction>;

export const TransactionListQuery = Type.Object({
  ...PageQuery.properties,
  customer_id: CustomerFilter,
  search: Type.Optional(
    Type.String({
      maxLength: 200,
      description: "Matches provider references, the order id, the customer's name, email and customerId, the product name and the payment method type",
    }),
  ),
  status: Type.Optional(Type.Enum([...TRANSACTION_STATUSES])),
  start_date: DateFilter('Transactions created on or after'),
  end_date: DateFilter('Transactions created on or before'),
  ...CountQuery,
});
export type TransactionListQuery = Static<typeof TransactionListQuery>;

export const TransactionList = CappedPaginated(Transaction, 'TransactionList');

// Refunds

export const Refund = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    reason: Type.Enum([...REFUND_REASONS_OUT]),
    amountUnits: Units('Amount refunded'),
    amount: Major('Amount refunded'),
    currency: Type.String(),
    internalNote: Type.Union([Type.String(), Type.Null()]),
    failureReason: Type.Union([Type.String(), Type.Null()]),
    status: Type.Enum([...REFUND_STATUSES]),
    order: Order,
    createdOn: Timestamp,
    modifiedOn: Timestamp,
  },
  { title: 'Refund' },
);
export type Refund = Static<typeof Refund>;

export const RefundCreate = Type.Object(
  {
    orderId: Type.String({ minLength: 1, maxLength: 200, description: 'The order to refund' }),
    amountUnits: Type.Optional(
      Type.Union([Type.Integer(), Type.Null()], {
        description: "Amount in the currency's minor unit, at least 1; wins when amount is given too",
      }),
    ),
    amount: Type.Optional(
      Type.Union([Type.Number(), Type.String({ maxLength: 40 }), Type.Null()], {
        description: 'Amount in major units (e.g. 25 or "25.50"), used when amountUnits is not given',
      }),
    ),
    reason: Type.Optional(Type.Union([Type.Enum([...REFUND_REASONS]), Type.Null()], { description: 'Default REQUESTED_BY_CUSTOMER' })),
    internalNote: Type.Optional(NullableString({ maxLength: 2000 })),
  },
  {
    additionalProperties: false,
    title: 'RefundCreate',
    description: 'Without amountUnits and amount, the whole remaining refundable balance is refunded',
  },
);
export type RefundCreate = Static<typeof RefundCreate>;

export const RefundListQuery = Type.Object({
  ...PageQuery.properties,
  customer_id: CustomerFilter,
  search: Type.Optional(
    Type.String({ maxLength: 200, description: "Matches the refund id, the order id and the customer's name, email and customerId" }),
  ),
  status: Type.Optional(Type.Enum([...REFUND_STATUSES])),
  start_date: DateFilter('Refunds created on or after'),
  end_date: DateFilter('Refunds created on or before'),
  ...CountQuery,
});
export type RefundListQuery = Static<typeof RefundListQuery>;

export const RefundPath = Type.Object({ refundId: Type.String({ minLength: 1, maxLength: 200, description: 'The refund UUID' }) });

export const RefundList = CappedPaginated(Refund, 'RefundList');

/** What the next renewal of a subscription will charge, if nothing changes before it (ours). */
export const UpcomingInvoice = Type.Object(
  {
    subscriptionId: Type.String({ format: 'uuid' }),
    currency: Type.String(),
    periodStart: Timestamp,
    periodEnd: Timestamp,
    /** When the charge is made: the start of the period it pays for. */
    nextPaymentAttempt: Timestamp,
    lines: Type.Array(InvoiceLine),
    amountSubtotal: Decimal('Sum of the lines'),
    amountDiscount: Decimal('Discount, customer credit included'),
    amountTax: Decimal('Tax'),
    amountTotal: Decimal('What will be charged'),
    amountSubtotalUnits: Units('Sum of the lines'),
    amountDiscountUnits: Units('Discount, customer credit included'),
    amountTaxUnits: Units('Tax'),
    amountTotalUnits: Units('What will be charged'),
    creditAppliedUnits: Units('Customer credit (from downgrades) spent on it'),
    taxRate: Type.String({ description: 'Percentage, e.g. "20"; "0" for a reverse charge' }),
    taxCountry: Type.Union([Type.String(), Type.Null()]),
    taxReason: Type.Enum([...TAX_REASONS]),
    buyerTaxId: Type.Union([BuyerTaxId, Type.Null()]),
  },
  { title: 'UpcomingInvoice' },
);
export type UpcomingInvoice = Static<typeof UpcomingInvoice>;

export const SubscriptionChangePreview = Type.Object(
  {
    subscriptionId: Type.String({ format: 'uuid', description: 'The subscription that would change' }),
    planIdentifier: Type.String({ description: 'The plan it would change to' }),
    chargePeriod: Type.String(),
    currency: Type.String(),
    periodStart: Timestamp,
    periodEnd: Type.Union([Timestamp, Type.Null()], { description: 'The end of the first period on the new terms; null when none ends' }),
    trialEnd: Type.Union([Timestamp, Type.Null()]),
    lines: Type.Array(InvoiceLine, { description: "The lines of the change's invoice: the new plan for the rest of the period, the usage it cuts short; empty when it bills nothing" }),
    amountSubtotalUnits: Units("The change's invoice before discount and tax"),
    amountDiscountUnits: Units('Its discount'),
    amountTaxUnits: Units('Its tax'),
    amountTotalUnits: Units('Its total: what the change costs now, before customer credit'),
    unusedCreditUnits: Units('The unused time of the current period given back (tax included), added to the customer credit'),
    creditAppliedUnits: Units('Customer credit (the unused time included) spent on the change'),
    amountDueNowUnits: Units('What would be charged to the card now'),
    amountDueNow: Decimal('What would be charged to the card now'),
  },
  { title: 'SubscriptionChangePreview' },
);
export type SubscriptionChangePreview = Static<typeof SubscriptionChangePreview>;
