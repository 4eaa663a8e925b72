import Fastify, { LogController, type FastifyBaseLogger, type FastifySchema } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import { Counter, Registry } from 'prom-client';
import type { Config, Role } from './config.js';
import type { DatabaseHandle } from './db/connect.js';
import type { Clock } from './lib/clock.js';
import { KeyCache, registerAuth, type AuthPolicy } from './http/auth.js';
import { AuthFailureLimiter } from './http/auth-failures.js';
import { KnownKeys } from './http/known-keys.js';
import { parseQuery, registerJsonBodyParser } from './http/casing.js';
import { environmentRewriter } from './http/environment.js';
import { clientErrorHandler, frameworkErrors } from './http/framework-errors.js';
import { registerInputGuards } from './http/input-guards.js';
import { registerErrorHandler } from './http/errors.js';
import { registerIdempotency } from './http/idempotency.js';
import { lazyRequestLogger } from './http/request-logger.js';
import { registerNotFound } from './http/method-not-allowed.js';
import { FastLane } from './http/fast-lane.js';
import { registerObservability, requestIdOf } from './http/observability.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerSerialization } from './http/serialization.js';
import { laneAnswerCheck, registerResponseCheck, type ResponseCheck } from './http/response-check.js';
import { registerValidation } from './http/validation.js';
import type { App } from './http/route-types.js';
import { accountsModule } from './modules/accounts/module.js';
import { DEFAULT_SESSION_SETTINGS, SessionService } from './modules/accounts/sessions.service.js';
import { TotpVault } from './modules/accounts/totp-vault.js';
import { apiKeysModule } from './modules/api-keys/module.js';
import { auditModule, registerAuditRecorder } from './modules/audit/module.js';
import { catalogModule } from './modules/catalog/module.js';
import { chargesModule } from './modules/charges/module.js';
import { checkoutModule } from './modules/checkout/module.js';
import type { ModuleContext } from './modules/context.js';
import { customersModule } from './modules/customers/module.js';
import { dashboardAppModule } from './modules/dashboard-app/module.js';
import { discountsModule } from './modules/discounts/module.js';
import { entitlementsModule } from './modules/entitlements/module.js';
import type { CachedEntitlements } from './modules/entitlements/service.js';
import { invoicesModule } from './modules/invoices/module.js';
import { creditNotesModule } from './modules/credit-notes/module.js';
import type { InvoiceCollector } from './modules/invoices/routes.js';
import { openChangeSession } from './modules/checkout/due-sessions.js';
import { setPayLinkRoot } from './lib/pay-links.js';
import { licensesModule } from './modules/licenses/module.js';
import { mailModule } from './modules/mail/module.js';
import { configuredMailer, MailOutbox } from './modules/mail/queries.js';
import { mediaModule } from './modules/media/module.js';
import { createMediaService, type MediaService } from './modules/media/service.js';
import { monetizationModule } from './modules/monetization/module.js';
import { opsModule } from './modules/ops/module.js';
import { guidesModule } from './modules/guides/module.js';
import { ordersModule } from './modules/orders/module.js';
import { overviewModule } from './modules/overview/module.js';
import { analyticsModule } from './modules/analytics/module.js';
import { partnerModule } from './modules/partner/module.js';
import { paymentsModule } from './modules/payments/module.js';
import type { SettleIntent } from './modules/payments/stripe/webhook.js';
import { configureProviders } from './modules/payments/providers.js';
import { intentSettler } from './job-handlers/recover-payments.js';
import { portalModule } from './modules/portal/module.js';
import { refundsModule } from './modules/refunds/module.js';
import { sellerProfileModule } from './modules/seller-profile/module.js';
import { subscriptionsModule } from './modules/subscriptions/module.js';
import { BillingEngine } from './use-cases/billing-engine.js';
import { ChargeService } from './use-cases/charge.js';
import { HostedCheckout } from './use-cases/checkout-page.js';
import { SubscriptionChanges } from './use-cases/subscription-changes.js';
import type { ChargeCreator } from './modules/charges/ports.js';
import type { RefundCreator } from './modules/refunds/ports.js';
import { RefundService } from './modules/refunds/service.js';
import { OrderPresenter } from './modules/ledger/presenter.js';
import { RefundOrder } from './use-cases/refund-order.js';
import type { CheckoutPages } from './modules/checkout/ports.js';
import type { SubscriptionWrites } from './modules/subscriptions/ports.js';
import { countBillingSubscriptions, endBillingSubscriptions } from './modules/subscriptions/end-all.js';
import { testClocksModule } from './modules/test-clocks/module.js';
import { createPromotionCache, feedPromotionCache, type PromotionCache } from './modules/promotions/cache.js';
import { promotionsEdgeModule, promotionsModule } from './modules/promotions/module.js';
import { transactionsModule } from './modules/transactions/module.js';
import { usageModule } from './modules/usage/module.js';
import { webhooksModule } from './modules/webhooks/module.js';
import { registerQueueDepth } from './modules/jobs/metrics.js';
import { registerWebhookQueueDepth } from './modules/webhooks/metrics.js';
import { registerReplicaReads } from './db/replica-metrics.js';
import { KEY_REVOKED_CHANNEL } from './modules/tenancy/service.js';
import { keysOfPrefixes } from './modules/tenancy/queries.js';
import { EntitlementChangeHub } from './edge-cache/change-hub.js';
import { ENTITLEMENTS_CHANNEL, USAGE_CHANNEL, allOf, entitlementChangesFor, feedEntitlementCache } from './edge-cache/change-feed.js';
import { ReportRoutes } from './modules/usage/report-route-cache.js';
import { EntitlementCache } from './edge-cache/entitlement-cache.js';
import { servesCoreApi, servesEdgeApi } from './edge-cache/roles.js';
import { REFERENCE_PAGE_CSP, pageHeaders } from './page-kit/headers.js';
import { referencePageOptions } from './page-kit/reference-theme.js';
import { withCodeSamples, withIntroduction } from './page-kit/reference-samples.js';
import { GuideLibrary } from './modules/guides/library.js';
import { attachExamples, type OpenApiDocument } from './openapi/attach-examples.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  logger: FastifyBaseLogger;
  role?: Role;
  redis?: Redis | null;
  /**
   * Test servers only (decision 0112): validates every JSON answer of a documented route against
   * the response schema it declares for the status, a mismatch answered 500 and told to this.
   */
  responseCheck?: ResponseCheck;
}

export interface RouteInfo {
  method: string;
  url: string;
  auth: AuthPolicy;
  /** The route's schema as declared (the contract's own objects), for the contract's drift test. */
  schema?: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    billow: {
      keyCache: KeyCache;
      routes: RouteInfo[];
      registry: Registry;
      media: MediaService;
      /** Entitlement answers of this process, kept fresh by the change feed (edge/change-feed.ts). */
      entitlementCache: EntitlementCache<CachedEntitlements>;
      /** Where usage reports go, kept fresh by the entitlements channel alone (modules/usage/report-routes.ts). */
      reportRoutes: ReportRoutes;
    };
  }
}

export const API_PREFIX = '/api/v1';

/** What app.ts hands every module's factory: the shared context and the parts only some modules take. */
interface AppContext extends ModuleContext {
  media: MediaService;
  entitlementCache: EntitlementCache<CachedEntitlements>;
  /** The change feed passed on to the streams of GET /entitlements/changes/. */
  changeHub: EntitlementChangeHub;
  reportRoutes: ReportRoutes;
  promotionCache: PromotionCache;
  /** Where the Edge's cached reads are also served ahead of Fastify (decision 0045). */
  fastLane: FastLane;
  customerSubscriptions: { countBilling: typeof countBillingSubscriptions; endBilling: typeof endBillingSubscriptions };
  ping: () => Promise<void>;
  registry: Registry;
  invoiceCollector: InvoiceCollector;
  /** Settles a payment intent whose outcome a provider's webhook reported (jobs/recover-payments.ts). */
  settleIntent: SettleIntent;
  /** Outgoing email: written in a transaction, sent after it (decision 0038). */
  mail: MailOutbox;
  /** The use cases (use-cases/) that the routes of modules ask for through their ports. */
  charges: ChargeCreator;
  refunds: RefundCreator;
  subscriptionChanges: SubscriptionWrites;
  checkoutPages: CheckoutPages;
  /** The seller's sessions, also the credential of the API (decision 0076). */
  sessions: SessionService;
  /** Where limits shared by every process are counted, when the installation has Redis. */
  redis: Redis | null;
  /** Forgets a revoked key in this process's key cache at once (decision 0003). */
  forgetKey: (keyHash: string) => void;
}

/** Every module is wired the same way: its factory takes the app and the context, and registers its routes. */
type ModuleFactory = (app: App, context: AppContext) => void;

/** The Core API's modules, in the order their routes are registered. */
const CORE_MODULES: ModuleFactory[] = [
  mediaModule,
  catalogModule,
  chargesModule,
  subscriptionsModule,
  customersModule,
  licensesModule,
  ordersModule,
  invoicesModule,
  creditNotesModule,
  transactionsModule,
  refundsModule,
  sellerProfileModule,
  monetizationModule,
  partnerModule,
  paymentsModule,
  usageModule,
  testClocksModule,
  webhooksModule,
  discountsModule,
  promotionsModule,
  checkoutModule,
  mailModule,
  portalModule,
  overviewModule,
  analyticsModule,
  accountsModule,
  apiKeysModule,
  auditModule,
  dashboardAppModule,
];
const EDGE_MODULES: ModuleFactory[] = [entitlementsModule, promotionsEdgeModule];

/** Builds the HTTP application without listening, so tests and main share it. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database, clock } = deps;
  const role = deps.role ?? 'all';
  const fastLane = new FastLane(config.edgeFastLane);
  const rewriteUrl = environmentRewriter(config.hostEnvironments);
  const app = Fastify({
    serverFactory: fastLane.serverFactory,
    loggerInstance: deps.logger,
    childLoggerFactory: lazyRequestLogger,
    logController: new LogController({ disableRequestLogging: true }),
    // genReqId reads the header itself, so that an invalid id is replaced rather than echoed.
    requestIdHeader: false,
    genReqId: requestIdOf,
    rewriteUrl,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      querystringParser: parseQuery,
      maxParamLength: 500,
    },
    // Our own onRequest hook answers 503 in the one error format (http/input-guards.ts).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    frameworkErrors,
    clientErrorHandler,
    // A connection that sends nothing, or its headers or body too slowly, is answered 408 and closed
    // (checked every second at most), so that slow or stalled clients cannot hold connections forever.
    http: {
      headersTimeout: config.timeouts.headersMs,
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(config.timeouts.headersMs / 2)),
    },
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const keyCache = new KeyCache(database.db, clock, config.keyCacheTtlMs);
  const stopListening = await database.listen(KEY_REVOKED_CHANNEL, (hash) =>
    hash ? keyCache.forget(hash) : keyCache.clear(),
  );
  app.addHook('onClose', async () => stopListening());
  const entitlementCache = new EntitlementCache<CachedEntitlements>({ clock });
  const reportRoutes = new ReportRoutes(database.db, clock);
  // Usage alone does not move a report's route: that cache does not follow the usage channel.
  const changeHub = new EntitlementChangeHub();
  const stopEntitlementFeed = await feedEntitlementCache(database, allOf([entitlementCache, reportRoutes, changeHub]), { channels: [ENTITLEMENTS_CHANNEL] });
  app.addHook('onClose', async () => stopEntitlementFeed());
  const stopUsageFeed = await feedEntitlementCache(database, allOf([entitlementCache, changeHub]), { channels: [USAGE_CHANNEL] });
  app.addHook('onClose', async () => stopUsageFeed());
  const promotionCache = createPromotionCache();
  const stopPromotionFeed = await feedPromotionCache(database, promotionCache);
  app.addHook('onClose', async () => stopPromotionFeed());
  const routes: RouteInfo[] = [];
  const registry = new Registry();
  entitlementCache.registerMetrics(registry);
  registerQueueDepth(registry, database.db);
  registerWebhookQueueDepth(registry, database.db);
  if (database.replicaCounts) registerReplicaReads(registry, database.replicaCounts);
  const entitlementChanges = entitlementChangesFor(entitlementCache, reportRoutes);
  const media = await createMediaService({ config, db: database.db, clock });
  app.decorate('billow', { keyCache, routes, registry, media, entitlementCache, reportRoutes });

  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (route.url.startsWith('/api/') && auth === undefined) {
      throw new Error(`Route ${route.method} ${route.url} must declare which keys it accepts (config.auth)`);
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, auth: auth ?? 'public', schema: route.schema });
    }
  });

  registerValidation(app);
  registerSerialization(app);
  if (deps.responseCheck) registerResponseCheck(app, deps.responseCheck);
  registerJsonBodyParser(app);
  registerErrorHandler(app);
  registerInputGuards(app);
  registerNotFound(app);
  const recorder = registerObservability(app, registry);
  const sessions = new SessionService(database.db, clock, new TotpVault(database.db, clock, config.secret), DEFAULT_SESSION_SETTINGS, deps.redis ?? null);
  registerAuth(app, {
    cache: keyCache,
    scope: { clock, publicUrl: config.publicUrl },
    sessions: (params) => sessions.admit(params),
    failures: new AuthFailureLimiter({ ...config.authFailureLimit, redis: deps.redis ?? null }, new KnownKeys((prefixes) => keysOfPrefixes(database.db, prefixes))),
  });
  const rateLimit = registerRateLimit(app, { ...config.rateLimit, redis: deps.redis ?? null });
  const answered = new Counter({
    name: 'billow_http_fast_lane_requests_total',
    help: "Edge reads answered from memory ahead of Fastify's routing (decision 0045)",
    registers: [registry],
  });
  const failed = new Counter({
    name: 'billow_http_fast_lane_failures_total',
    help: 'Edge reads whose fast-lane step threw, then served by Fastify (each is logged)',
    registers: [registry],
  });
  const checkAnswer = deps.responseCheck
    ? laneAnswerCheck((url) => routes.find((route) => route.method === 'GET' && route.url === url)?.schema, deps.responseCheck)
    : undefined;
  fastLane.attach({ keys: keyCache, rewriteUrl, rateLimit, recorder, trustProxy: config.trustProxy, answered, failed, log: app.log, checkAnswer });
  app.addHook('preClose', (done) => {
    fastLane.close();
    done();
  });
  registerIdempotency(app, database.db, clock, config.idempotencyLeaseMs);
  registerAuditRecorder(app, database.db, clock);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Billow API',
        version: '1.0.0',
        description:
          'Billing, catalog and entitlements for software sellers. Production is served at `/api/v1`, sandbox at `/sandbox/api/v1`.',
      },
      servers: [
        { url: '/', description: 'Production' },
        { url: '/sandbox', description: 'Sandbox' },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'A server or client key of the environment' },
          partnerKey: { type: 'apiKey', in: 'header', name: 'X-Billow-Partner-Key' },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'billow_session',
            description:
              "A seller's dashboard session. On /api/v1 it stands for the organization's server key only with the headers " +
              'X-CSRF-Token (the session\'s csrfToken) and X-Billow-Organization (the organization id), then within the member\'s role',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    // Every operation's examples (openapi/examples/, checked against its schemas by test/openapi-examples.test.ts),
    // its curl, SDK and official-client samples, and the introduction with the guides.
    transformObject: (document) =>
      'openapiObject' in document
        ? withIntroduction(withCodeSamples(attachExamples(document.openapiObject as OpenApiDocument) as never), new GuideLibrary().list())
        : document.swaggerObject,
  });
  // In a scope of its own, so that the page headers cover the reference's static files too.
  await app.register(async (reference) => {
    reference.addHook('onRequest', (_request, reply, done) => {
      pageHeaders(reply);
      done();
    });
    await reference.register(swaggerUi, { routePrefix: '/docs', ...referencePageOptions, staticCSP: REFERENCE_PAGE_CSP });
  });
  app.get(`${API_PREFIX}/openapi.json`, { config: { auth: 'public', rateLimit: false }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  const mail = new MailOutbox(database.db, clock, configuredMailer(config.mail), app.log);
  // First attempts at sending still running finish before the database closes.
  app.addHook('onClose', async () => mail.settle());
  const billing = new BillingEngine({ db: database.db, clock, changes: entitlementChanges, dunning: config.billing.dunningDays });
  const context: AppContext = {
    db: database.db,
    reads: database.reads,
    clock,
    config,
    publicUrl: config.publicUrl,
    entitlementChanges,
    media,
    entitlementCache,
    changeHub,
    reportRoutes,
    promotionCache,
    fastLane,
    customerSubscriptions: { countBilling: countBillingSubscriptions, endBilling: endBillingSubscriptions },
    ping: database.ping,
    registry,
    invoiceCollector: (scope, invoiceId) => billing.collectNow(scope, invoiceId),
    mail,
    charges: new ChargeService(database.db, clock, entitlementChanges),
    refunds: new RefundOrder(database.db, clock, new RefundService(database.db, new OrderPresenter(media))),
    // An activate_on_payment change waiting for its payment gets the hosted page (decision 0035).
    subscriptionChanges: new SubscriptionChanges(database.db, clock, config.pendingUpdateTtlMs, entitlementChanges, openChangeSession),
    // The page of a payment link collects an unpaid invoice as POST /invoices/{id}/pay/ does.
    checkoutPages: new HostedCheckout(database.db, clock, config, entitlementChanges, (scope, invoiceId) => billing.collectNow(scope, invoiceId)),
    sessions,
    redis: deps.redis ?? null,
    forgetKey: (keyHash) => keyCache.forget(keyHash),
    settleIntent: intentSettler(database.db, clock, config.pendingUpdateTtlMs, config.billing.dunningDays),
  };
  // Every role moves money (the worker's recovery task too): sealing and Stripe's address are set for all.
  configureProviders(database.db, { secret: config.secret, stripeApiUrl: config.stripeApiUrl });
  setPayLinkRoot(config.publicUrl ?? `http://localhost:${config.port}`);
  const modules = [opsModule, guidesModule, ...(servesCoreApi(role) ? CORE_MODULES : []), ...(servesEdgeApi(role) ? EDGE_MODULES : [])];
  for (const register of modules) register(app, context);

  await app.ready();
  return app;
}
