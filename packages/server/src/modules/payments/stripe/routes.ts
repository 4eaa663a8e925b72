import {
  ErrorBody,
  PaymentMethod,
  PaymentProviderSet,
  PaymentProviderSettings,
  StripePaymentMethodAttach,
  NoContent,
} from '@billow/contract';
import { Type } from 'typebox';
import type { Db } from '../../../db/connect.js';
import { SERVER_ONLY, type App } from '../../../http/route-types.js';
import { scopeOf } from '../../../http/scope.js';
import type { Clock } from '../../../lib/clock.js';
import { providerNotConfigured } from '../errors.js';
import type { PaymentMethodService } from '../methods.service.js';
import { removeStripeSettings, saveStripeSettings, stripeSettingsView } from './settings.js';
import type { StripeWebhooks } from './webhook.js';
import { answerKeeper } from '../../../http/idempotency.js';

const tags = ['Payment provider'];
/** What a sandbox without Stripe pays with: the built-in test provider, in the shape of a configured one. */
const BUILT_IN_SANDBOX_PROVIDER = {
  provider: 'sandbox',
  mode: 'test',
  secretKeyHint: null,
  webhookSecretHint: null,
  publishableKey: null,
  webhookPath: null,
  updatedOn: null,
} as const;
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
/** Stripe's events are small; a generous bound all the same. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** The environment's payment provider (ours, not in the Kelviq API): set, shown (hints only), removed. */
export function providerSettingsRoutes(app: App, deps: { db: Db; clock: Clock }): void {
  app.get(
    '/api/v1/payment-provider/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "The environment's payment provider",
        description:
          'Which provider takes payments in this environment, with hints of its secrets (never the secrets). A sandbox without a Stripe ' +
          'account answers its built-in test provider (provider `sandbox`, no keys). 404 in production when none is configured.',
        response: { 200: PaymentProviderSettings, ...errors },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const view = await stripeSettingsView(deps.db, scope.environmentId);
      if (view) return view;
      if (scope.environment === 'sandbox') return BUILT_IN_SANDBOX_PROVIDER;
      throw providerNotConfigured();
    },
  );

  app.put(
    '/api/v1/payment-provider/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "Set the environment's payment provider (Stripe)",
        description:
          "An addition of Billow's: stores the secret key and webhook signing secret of the seller's Stripe account, sealed at rest with the " +
          'instance key, for the environment of the key used. From then on the environment takes payments on that account; in production ' +
          'purchases stop answering 428. The answer shows hints only. A sandbox takes only test-mode keys. See docs/going-live.md.',
        body: PaymentProviderSet,
        response: { 200: PaymentProviderSettings, ...errors },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      return saveStripeSettings(deps.db, deps.clock, scope, {
        secretKey: request.body.stripeSecretKey,
        webhookSecret: request.body.stripeWebhookSecret,
        publishableKey: request.body.stripePublishableKey ?? null,
      });
    },
  );

  app.delete(
    '/api/v1/payment-provider/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "Remove the environment's payment provider",
        description: 'Forgets the Stripe keys. Production purchases answer 428 again; a sandbox goes back to its built-in provider.',
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      if (!(await removeStripeSettings(deps.db, scopeOf(request), deps.clock))) throw providerNotConfigured();
      return reply.code(204).send(null);
    },
  );
}

export function stripeMethodRoutes(app: App, service: PaymentMethodService): void {
  app.post(
    '/api/v1/payment-methods/stripe/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Payment methods'],
        summary: 'Save a card collected with Stripe (environments with Stripe configured)',
        description:
          "An addition of Billow's: attaches a card PaymentMethod (pm_…) that the customer entered in Stripe's own element on your page to " +
          "the customer's Stripe customer on your account, and saves it. Billow never sees the card number. A customer's first method " +
          'becomes its default. 428 when the environment has no Stripe account configured.',
        body: StripePaymentMethodAttach,
        response: { 201: PaymentMethod, ...errors, 428: ErrorBody, 503: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await service.attachStripe(scopeOf(request), request.body, answerKeeper(request, reply, 201))),
  );
}

/** Stripe's deliveries: the raw body is kept (the signature is over its bytes), and the route is not part of the API document. */
export function stripeWebhookRoutes(app: App, webhooks: StripeWebhooks): void {
  void app.register(async (hooks: App) => {
    hooks.removeContentTypeParser('application/json');
    hooks.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    hooks.post(
      '/providers/stripe/webhook/:environmentId',
      { schema: { hide: true, params: Type.Object({ environmentId: Type.String({ maxLength: 100 }) }) } },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        return webhooks.receive(request.params.environmentId, raw, typeof signature === 'string' ? signature : undefined);
      },
    );
  });
}
