import { Type, type Static } from 'typebox';

/** An environment's payment provider (ours, not in the Kelviq API): only hints of its secrets are ever shown. */
export const PaymentProviderSettings = Type.Object(
  {
    provider: Type.Union([Type.Literal('stripe'), Type.Literal('sandbox')], {
      description:
        "stripe: the seller's Stripe account, configured with PUT. sandbox: the sandbox's built-in test provider (test cards), " +
        'which takes payments in a sandbox that has no Stripe account configured; it has no keys and no webhook.',
    }),
    mode: Type.Union([Type.Literal('live'), Type.Literal('test')], { description: 'Whether the secret key is a live-mode or a test-mode key (the built-in provider: test)' }),
    secretKeyHint: Type.Union([Type.String(), Type.Null()], { description: 'The kind and last four characters of the secret key, e.g. "sk_live_…4242"; null for the built-in provider' }),
    webhookSecretHint: Type.Union([Type.String(), Type.Null()], { description: 'The kind and last four characters of the webhook signing secret; null for the built-in provider' }),
    publishableKey: Type.Union([Type.String(), Type.Null()], { description: "The publishable key (pk_…) Stripe.js uses on Billow's checkout page; null when not given" }),
    webhookPath: Type.Union([Type.String(), Type.Null()], {
      description: "The path of this environment's Stripe webhook endpoint, to give Stripe (after your public URL); null for the built-in provider",
    }),
    updatedOn: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the keys were last set; null for the built-in provider' }),
  },
  { title: 'PaymentProviderSettings' },
);
export type PaymentProviderSettings = Static<typeof PaymentProviderSettings>;

export const PaymentProviderSet = Type.Object(
  {
    provider: Type.Literal('stripe'),
    stripeSecretKey: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'The secret key (sk_live_…, sk_test_…) or a restricted key (rk_…) of your Stripe account. A sandbox takes only test-mode keys.',
    }),
    stripeWebhookSecret: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'The signing secret (whsec_…) of the Stripe webhook endpoint that points at webhookPath',
    }),
    stripePublishableKey: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: "The publishable key (pk_…) of the same account and mode, for Stripe's Payment Element on Billow's hosted checkout page",
      }),
    ),
  },
  { additionalProperties: false, title: 'PaymentProviderSet' },
);
export type PaymentProviderSet = Static<typeof PaymentProviderSet>;

export const StripePaymentMethodAttach = Type.Object(
  {
    customerId: Type.String({ minLength: 1, maxLength: 255, description: 'The customerId of an existing customer' }),
    stripePaymentMethod: Type.String({
      minLength: 1,
      maxLength: 255,
      description: "The id (pm_…) of a card PaymentMethod of your Stripe account, collected with Stripe's own element",
    }),
  },
  { additionalProperties: false, title: 'StripePaymentMethodAttach' },
);
export type StripePaymentMethodAttach = Static<typeof StripePaymentMethodAttach>;
