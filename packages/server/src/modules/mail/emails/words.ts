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
    retryOn: (date: string) => `We will try again on ${date}.`,
    noRetry: 'We will not try to take this payment again on our own.',
    linkUntil: (date: string) => `The link works until ${date}.`,
    newCard: 'To pay with another card from now on, sign in to the customer portal:',
  },
  paymentRetryFailed: {
    subject: (seller: string) => `Your payment to ${seller} still did not go through`,
    heading: 'We still could not take your payment',
    failedAgain: (amount: string, product: string) => `We tried again to take your payment of ${amount} for ${product}, and it did not go through.`,
    retryOn: (date: string) => `We will try again on ${date}.`,
    finalNotice: (date: string) =>
      `This is your final notice: that will be our last try. If the payment does not go through then, your subscription will be cancelled on ${date}.`,
  },
  cancelledUnpaid: {
    subject: (seller: string) => `Your subscription to ${seller} has been cancelled`,
    heading: 'Your subscription has been cancelled',
    unpaid: (product: string, plan: string) => `We could not take the payment for your subscription to ${product} (${plan}), so it has been cancelled.`,
    trialEnded: (product: string, plan: string) =>
      `Your free trial of ${product} (${plan}) has ended. As no payment method was on file, the subscription has been cancelled.`,
    next: 'Your access has ended, and no further payment will be taken for it. You are welcome to subscribe again at any time.',
  },
  subscriptionCancelled: {
    subject: (seller: string) => `Your subscription to ${seller} has been cancelled`,
    heading: 'Your subscription has been cancelled',
    cancelled: (product: string, plan: string, date: string) => `Your subscription to ${product} (${plan}) was cancelled on ${date}, with immediate effect.`,
    next: 'Your access has ended, and the subscription will not renew.',
  },
  cancellationScheduled: {
    subject: (seller: string, date: string) => `Your subscription to ${seller} ends on ${date}`,
    heading: 'Your subscription is set to end',
    scheduled: (product: string, plan: string, date: string) => `Your subscription to ${product} (${plan}) has been cancelled and will end on ${date}.`,
    until: 'You keep your access until then, and it will not renew.',
    keep: 'Changed your mind? You can keep your subscription in the customer portal:',
  },
  trialEnding: {
    subject: (seller: string) => `Your free trial with ${seller} ends soon`,
    heading: 'Your free trial ends soon',
    ends: (product: string, plan: string, date: string) => `Your free trial of ${product} (${plan}) ends on ${date}.`,
    charge: (amount: string, card: string) => `Your subscription then continues, and we will charge ${amount} to your card ending in ${card}.`,
    noCard: (amount: string) => `To continue after the trial, add a payment method before then; the first payment will be ${amount}. Without one, the subscription ends with the trial.`,
    cancel: 'If you do not want to continue, cancel before then in the customer portal:',
    cancelByEmail: (email: string) => `If you do not want to continue, write to ${email} before then.`,
  },
  upcomingRenewal: {
    subject: (seller: string) => `Your subscription to ${seller} renews soon`,
    heading: 'Your subscription renews soon',
    renews: (product: string, plan: string, date: string, amount: string) => `Your subscription to ${product} (${plan}) renews on ${date} for ${amount}.`,
    renewsOn: (product: string, plan: string, date: string) => `Your subscription to ${product} (${plan}) renews on ${date}.`,
    card: (card: string) => `We will charge your card ending in ${card}.`,
    cancel: 'If you do not want it to renew, cancel before then in the customer portal:',
    cancelByEmail: (email: string) => `If you do not want it to renew, write to ${email} before then.`,
  },
  cardExpiring: {
    subject: (seller: string) => `Your card on file with ${seller} needs updating`,
    heading: 'Please update your card',
    expires: (card: string, month: string) => `Your card ending in ${card} expires at the end of ${month}.`,
    expired: (card: string, month: string) => `Your card ending in ${card} expired at the end of ${month}.`,
    nextPayment: (product: string, date: string) => `Your next payment for ${product} is due on ${date}, when the card will no longer work.`,
    update: 'To keep your subscription running, add a new card in the customer portal:',
    updateByEmail: (email: string) => `To keep your subscription running, write to ${email} to update your card.`,
  },
  cancelled: {
    subject: (seller: string) => `Your subscription to ${seller} has ended`,
    heading: 'Your subscription has ended',
    ended: (product: string, plan: string) => `Your subscription to ${product} (${plan}) has ended.`,
    thanks: 'Thank you for having been a customer.',
  },
} as const;
