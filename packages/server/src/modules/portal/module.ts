import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { CustomerService, type CustomerSubscriptions } from '../customers/service.js';
import { taxIdVerifier } from '../customers/queries.js';
import { instanceSecret } from '../instance-secrets/secret.js';
import type { InvoiceCollector } from '../invoices/routes.js';
import { CreditNoteService } from '../credit-notes/service.js';
import { InvoiceService } from '../invoices/service.js';
import type { ImageUrls } from '../ledger/presenter.js';
import { OrderPresenter } from '../ledger/presenter.js';
import { LicenseService } from '../licenses/service.js';
import { OrderService } from '../orders/service.js';
import { PaymentMethodService } from '../payments/methods.service.js';
import type { SubscriptionWrites } from '../subscriptions/ports.js';
import { SubscriptionService } from '../subscriptions/service.js';
import { PortalActions } from './actions.js';
import { portalPageRoutes } from './page-routes.js';
import { PortalPages } from './pages.js';
import { PortalReader } from './reader.js';
import { portalSessionRoutes } from './routes.js';
import { PortalSessions } from './sessions.js';
import { portalSignIn } from './sign-in/module.js';
import type { SignInMail } from './sign-in/service.js';

type PortalContext = ModuleContext & {
  media: ImageUrls;
  invoiceCollector: InvoiceCollector;
  customerSubscriptions: CustomerSubscriptions;
  mail: SignInMail;
  subscriptionChanges: SubscriptionWrites;
};

/**
 * The customer portal (decision 0037): sessions for the API, and the hosted page they open,
 * whose every action goes through the same services as the API.
 */
export function portalModule(app: App, context: PortalContext): void {
  const { db, clock, config } = context;
  const sessions = new PortalSessions(db, clock, config.portal.sessionTtlMs);
  portalSessionRoutes(app, sessions);
  const subscriptions = new SubscriptionService(db, clock);
  const methods = new PaymentMethodService(db, clock);
  const invoices = new InvoiceService(db);
  const creditNotes = new CreditNoteService(db);
  const reader = new PortalReader({ db, subscriptions, methods, invoices, creditNotes, orders: new OrderService(db, new OrderPresenter(context.media)) });
  const actions = new PortalActions({
    db,
    clock,
    subscriptions: context.subscriptionChanges,
    methods,
    licenses: new LicenseService(db, clock),
    customers: new CustomerService(db, clock, context.entitlementChanges, context.customerSubscriptions, taxIdVerifier(config.taxIdCheck, (message) => app.log.warn(message))),
    collectInvoice: context.invoiceCollector,
  });
  const secret = instanceSecret(db, clock, config.secret, 'portal_csrf');
  portalPageRoutes(app, new PortalPages({ db, clock, sessions, reader, actions, invoices, creditNotes, secret }), config);
  portalSignIn(app, context, { mail: context.mail, sessions });
}
