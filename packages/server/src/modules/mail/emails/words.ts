/**
 * Every word buyers read in Billow's emails (decision 0067), one object per kind, English
 * only for now: kept in this one file so that message catalogues can take them over.
 */
export const words = {
  common: {
    greeting: 'Hello,',
    questions: (email: string) => `Questions? Write to ${email}.`,
    sentBy: (seller: string) => `This email was sent by ${seller}.`,
    portal: 'Your purchases and invoices are in the customer portal:',
  },
  receipt: {
    subject: (seller: string) => `Your receipt from ${seller}`,
    heading: 'Thank you for your payment',
    paid: (amount: string, product: string) => `We received your payment of ${amount} for ${product}.`,
    invoice: (id: string) => `Invoice: ${id}`,
    attached: 'The invoice is attached as a PDF.',
  },
  refund: {
    subject: (seller: string) => `Your refund from ${seller}`,
    heading: 'Your refund is on its way',
    refunded: (amount: string, invoice: string) => `We refunded ${amount} of invoice ${invoice} to your payment method.`,
    timing: 'Depending on your bank, it can take a few days to appear on your statement.',
    creditNote: (number: string) => `Credit note: ${number}`,
    attached: 'The credit note is attached as a PDF.',
  },
  paymentFailed: {
    subject: (seller: string) => `Your payment to ${seller} did not go through`,
    heading: 'We could not take your payment',
    failed: (amount: string, product: string) => `Your payment of ${amount} for ${product} did not go through.`,
    payHere: 'You can pay the invoice here:',
    noLink: 'Please check your payment method; we will try again.',
  },
  cancelled: {
    subject: (seller: string) => `Your subscription to ${seller} has ended`,
    heading: 'Your subscription has ended',
    ended: (product: string, plan: string) => `Your subscription to ${product} (${plan}) has ended.`,
    thanks: 'Thank you for having been a customer.',
  },
} as const;
