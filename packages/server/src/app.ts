import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { randomUUID } from 'node:crypto';
import type { Config, Role } from './config.js';
import type { DatabaseHandle, Db } from './db/connect.js';
import type { Clock } from './lib/clock.js';
import { KeyCache, registerAuth, type AuthPolicy } from './http/auth.js';
import { AuthFailureLimiter } from './http/auth-failures.js';
import { parseQuery, registerJsonBodyParser } from './http/casing.js';
import { environmentRewriter } from './http/environment.js';
import { clientErrorHandler, frameworkErrors } from './http/framework-errors.js';
import { registerInputGuards } from './http/input-guards.js';
import { registerErrorHandler } from './http/errors.js';
import { registerIdempotency } from './http/idempotency.js';
import { lazyRequestLogger } from './http/request-logger.js';
import { registerNotFound } from './http/method-not-allowed.js';
import { REQUEST_ID_HEADER, registerObservability, validRequestId } from './http/observability.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerValidation } from './http/validation.js';
import type { App } from './http/route-types.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import { chargeRoutes } from './modules/charges/routes.js';
import { ChargeService } from './modules/charges/service.js';
import { customerRoutes } from './modules/customers/routes.js';
import { entitlementRoutes } from './modules/entitlements/routes.js';
import { EntitlementService, type CachedEntitlements } from './modules/entitlements/service.js';
import { licenseRoutes } from './modules/licenses/routes.js';
import { invoiceRoutes } from './modules/invoices/routes.js';
import { InvoiceService } from './modules/invoices/service.js';
import { OrderPresenter, type ImageUrls } from './modules/ledger/presenter.js';
import { ledgerScopeResolver } from './modules/ledger/scope.js';
import { orderRoutes } from './modules/orders/routes.js';
import { OrderService } from './modules/orders/service.js';
import { refundRoutes } from './modules/refunds/routes.js';
import { RefundService } from './modules/refunds/service.js';
import { transactionRoutes } from './modules/transactions/routes.js';
import { TransactionService } from './modules/transactions/service.js';
import { usageRoutes } from './modules/usage/routes.js';
import { UsageService } from './modules/usage/service.js';
import { subscriptionRoutes } from './modules/subscriptions/routes.js';
import { SubscriptionService } from './modules/subscriptions/service.js';
import { monetizationRoutes } from './modules/monetization/routes.js';
import { mediaRoutes } from './modules/media/routes.js';
import { createMediaService, type MediaService } from './modules/media/service.js';
import { CustomerService } from './modules/customers/service.js';
import { countBillingSubscriptions, endBillingSubscriptions } from './modules/subscriptions/end-all.js';
import { opsRoutes } from './modules/ops/routes.js';
import { partnerRoutes } from './modules/partner/routes.js';
import { paymentMethodRoutes } from './modules/payments/routes.js';
import { PartnerService } from './modules/partner/service.js';
import { KEY_REVOKED_CHANNEL } from './modules/tenancy/service.js';
import { entitlementChangesFor, feedEntitlementCache, entitlementsChangedNotice } from './edge/change-feed.js';
import { EntitlementCache } from './edge/entitlement-cache.js';
import { servesCoreApi, servesEdgeApi } from './edge/roles.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  logger: FastifyBaseLogger;
  role?: Role;
  redis?: Redis | null;
}

export interface RouteInfo {
  method: string;
  url: string;
  auth: AuthPolicy;
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
    };
  }
}

export const API_PREFIX = '/api/v1';

/** Builds the HTTP application without listening, so tests and main share it. */
interface LedgerDeps {
  db: Db;
  clock: Clock;
  /** Public URLs of product images (the media service). */
  media: ImageUrls;
  publicUrl: string | null;
}

/** The money records, over the ledger module: orders and their timelines, invoices (with PDFs), transactions, refunds. */
function ledgerRoutes(app: App, { db, clock, media, publicUrl }: LedgerDeps): void {
  const scopeOf = ledgerScopeResolver(publicUrl);
  const presenter = new OrderPresenter(media);
  orderRoutes(app, new OrderService(db, presenter), scopeOf);
  invoiceRoutes(app, new InvoiceService(db), scopeOf);
  transactionRoutes(app, new TransactionService(db, clock, presenter), scopeOf);
  refundRoutes(app, new RefundService(db, clock, presenter), scopeOf);
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database, clock } = deps;
  const role = deps.role ?? 'all';
  const app = Fastify({
    loggerInstance: deps.logger,
    childLoggerFactory: lazyRequestLogger,
    logController: new LogController({ disableRequestLogging: true }),
    // genReqId reads the header itself, so that an invalid id is replaced rather than echoed.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers[REQUEST_ID_HEADER];
      return validRequestId(given) ? given : randomUUID();
    },
    rewriteUrl: environmentRewriter(config.hostEnvironments),
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
  const stopEntitlementFeed = await feedEntitlementCache(database, entitlementCache);
  app.addHook('onClose', async () => stopEntitlementFeed());
  const routes: RouteInfo[] = [];
  const registry = new Registry();
  entitlementCache.registerMetrics(registry);
  const entitlementChanges = entitlementChangesFor(entitlementCache);
  const media = await createMediaService({ config, db: database.db, clock });
  app.decorate('billow', { keyCache, routes, registry, media, entitlementCache });

  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (route.url.startsWith('/api/') && auth === undefined) {
      throw new Error(`Route ${route.method} ${route.url} must declare which keys it accepts (config.auth)`);
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, auth: auth ?? 'public' });
    }
  });

  registerValidation(app);
  registerJsonBodyParser(app);
  registerErrorHandler(app);
  registerInputGuards(app);
  registerNotFound(app);
  registerObservability(app, registry);
  registerAuth(app, {
    cache: keyCache,
    failures: new AuthFailureLimiter({ ...config.authFailureLimit, redis: deps.redis ?? null }),
  });
  await registerRateLimit(app, { ...config.rateLimit, redis: deps.redis ?? null });
  registerIdempotency(app, database.db, clock, config.idempotencyLeaseMs);

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
        },
      },
      security: [{ bearerAuth: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  app.get(`${API_PREFIX}/openapi.json`, { config: { auth: 'public', rateLimit: false }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  opsRoutes(app, { ping: database.ping, registry });

  if (servesCoreApi(role)) {
    mediaRoutes(app, media);
    catalogRoutes(app, { db: database.db, clock, media, publicUrl: config.publicUrl, changes: entitlementChanges });
    chargeRoutes(app, new ChargeService(database.db, clock, entitlementChanges));
    subscriptionRoutes(app, new SubscriptionService(database.db, clock, config.pendingUpdateTtlMs, entitlementChanges), config.publicUrl);
    customerRoutes(
      app,
      new CustomerService(database.db, clock, entitlementChanges, {
        countBilling: countBillingSubscriptions,
        endBilling: endBillingSubscriptions,
      }),
    );
    licenseRoutes(app, { db: database.db, clock });
    ledgerRoutes(app, { db: database.db, clock, media, publicUrl: config.publicUrl });
    monetizationRoutes(app, { db: database.db, clock });
    partnerRoutes(app, new PartnerService(database.db, clock));
    paymentMethodRoutes(app, { db: database.db, clock });
    usageRoutes(
      app,
      new UsageService(database.db, clock, {
        notice: entitlementsChangedNotice,
        afterCommit: (environmentId, customerId) => entitlementCache.invalidateCustomer(environmentId, customerId),
      }),
    );
  }
  if (servesEdgeApi(role)) {
    entitlementRoutes(app, new EntitlementService(database.db, clock, entitlementCache));
  }

  await app.ready();
  return app;
}
