/**
 * Every word buyers read in Billow's emails (decision 0067), one object per kind, English
 * only for now: kept in this one file so that message catalogues can take them over.
 */
export const words = {
  common: {
    greeting: 'Hello,',
    questions: (email: string) => `Questions? Write to ${email}.`,
    sentBy: (seller: string) => `This email was sent by ${seller}.`,
  },
  receipt: {
    subject: (seller: string) => `Your receipt from ${seller}`,
    heading: 'Thank you for your payment',
    paid: (amount: string, product: string) => `We received your payment of ${amount} for ${product}.`,
    invoice: (id: string) => `Invoice: ${id}`,
    attached: 'The invoice is attached as a PDF.',
  },
} as const;
