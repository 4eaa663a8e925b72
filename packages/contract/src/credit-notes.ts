import { Type, type Static } from 'typebox';
import { CappedPaginated, CountQuery, ListSort, PageQuery, SearchQuery, Timestamp } from './common.js';
import { InvoiceCustomer } from './orders.js';

// Credit notes (a Billow addition, decision 0065): what a settled refund or the unused time of a
// plan change gives back, against the invoice it corrects. Amounts are what is credited, positive.

export const CREDIT_NOTE_REASONS = ['REFUND', 'PRORATION'] as const;

const Decimal = (description: string) => Type.String({ description: `${description}, as a decimal string such as "12.50"` });
const Units = (description: string) => Type.Integer({ description: `${description}, in the currency's minor unit` });
const Rate = Type.String({ description: 'Tax rate in percent, e.g. "19" or "8.25"' });

export const CreditNoteLine = Type.Object(
  {
    description: Type.String(),
    quantity: Type.Integer(),
    amount: Decimal('Credited amount before tax'),
    amountUnits: Units('Credited amount before tax'),
    taxRate: Rate,
    taxAmount: Decimal('Tax credited'),
    taxAmountUnits: Units('Tax credited'),
  },
  { title: 'CreditNoteLine' },
);
export type CreditNoteLine = Static<typeof CreditNoteLine>;

export const CreditNoteTaxTotal = Type.Object(
  {
    taxRate: Rate,
    taxableAmountUnits: Units('What the lines at this rate credit before tax'),
    taxAmountUnits: Units('Tax credited at this rate'),
  },
  { title: 'CreditNoteTaxTotal' },
);

export const CreditNote = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    object: Type.Literal('credit_note'),
    number: Type.String({
      description: "The credit note's number in the seller's gapless credit note sequence: the invoice prefix, CN, the year and a counter (ACME-CN-2026-000001)",
    }),
    reason: Type.Enum([...CREDIT_NOTE_REASONS], { description: 'REFUND: a refund settled; PRORATION: the unused time of a plan change' }),
    invoiceId: Type.Union([Type.String(), Type.Null()], { description: 'The invoice it corrects' }),
    invoiceNumber: Type.Union([Type.String(), Type.Null()], { description: "That invoice's number (null for an invoice issued before numbering)" }),
    orderId: Type.Union([Type.String(), Type.Null()]),
    refundId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'The refund it documents (REFUND)' }),
    subscriptionId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'The subscription the plan change replaced (PRORATION)' }),
    customer: InvoiceCustomer,
    currency: Type.String(),
    amountSubtotal: Decimal('Credited before tax'),
    amountTax: Decimal('Tax credited'),
    amountTotal: Decimal('Credited, tax included'),
    amountSubtotalUnits: Units('Credited before tax'),
    amountTaxUnits: Units('Tax credited'),
    amountTotalUnits: Units('Credited, tax included'),
    lines: Type.Array(CreditNoteLine),
    taxTotals: Type.Array(CreditNoteTaxTotal, { description: 'The lines summed per tax rate' }),
    seller: Type.Record(Type.String(), Type.Unknown(), { description: 'Who issued it, as the seller profile was then' }),
    buyer: Type.Record(Type.String(), Type.Unknown(), { description: 'Whom it is for, as on the invoice it corrects' }),
    issuedOn: Timestamp,
    pdfUrl: Type.String({ description: 'GET it with the same key for the PDF' }),
  },
  { title: 'CreditNote' },
);
export type CreditNote = Static<typeof CreditNote>;

export const CREDIT_NOTE_SORTS = ['issuedOn', 'total'] as const;

export const CreditNoteListQuery = Type.Object({
  ...PageQuery.properties,
  customer_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: "Only this customer's: their customerId (or the customer's UUID)" }),
  ),
  invoice_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only those correcting this invoice (its id)' })),
  reason: Type.Optional(Type.Enum([...CREDIT_NOTE_REASONS])),
  search: SearchQuery("the credit note's number, its invoice's number and the customer's name, email and customerId"),
  ...ListSort(CREDIT_NOTE_SORTS, 'newest first'),
  ...CountQuery,
});
export type CreditNoteListQuery = Static<typeof CreditNoteListQuery>;

export const CreditNotePath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'The credit note id' }) });

export const CreditNoteList = CappedPaginated(CreditNote, 'CreditNoteList');
