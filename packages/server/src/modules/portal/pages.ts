import { sellerOnPages } from '../seller-profile/queries.js';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { formTokenValid, formToken } from '../../page-kit/csrf.js';
import type { Sent } from '../../page-kit/forms.js';
import { DomainError, isNotFound } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import type { CreditNoteService } from '../credit-notes/service.js';
import type { InvoiceService } from '../invoices/service.js';
import { isAction, isNotice, ownChange, type PortalActions } from './actions.js';
import { PortalForgedForm, PortalNotFound, PortalRefusal, portalRefusal } from './errors.js';
import { hasPersonMessage } from '../../page-kit/card-form.js';
import { translator } from '../../page-kit/i18n.js';
import { browserLanguage, negotiateLanguage } from '../../page-kit/locale.js';
import { stripeElementKey } from '../payments/providers.js';
import { portalPage, portalUsesStripeJs } from './page.js';
import { pageHref, problemOf, type ChangeAsked, type PageState } from './page-state.js';
import type { PortalModel, PortalReader, PortalScope } from './reader.js';
import * as repo from './repo.js';
import type { PortalAccess, PortalSessions } from './sessions.js';

/** Where a request came in: the environment's path prefix and this server's URLs. */
export interface PortalPlace {
  slug: string;
  environment: 'sandbox' | 'production';
  prefix: string;
  baseUrl: string;
  apiBase: string;
  /** The browser's Accept-Language: the page's language when the customer has no locale. */
  acceptLanguage?: string | string[] | undefined;
}

/** A domain refusal as the page says it: the portal's own in the catalogue's words, a card's too, else its detail. */
function refusalProblem(error: DomainError) {
  if (error instanceof PortalRefusal) return problemOf(error);
  return problemOf(hasPersonMessage(error.code) ? { detail: error.detail, code: error.code, key: `problem.${error.code}` } : error);
}

export type PortalAnswer =
  /** `status`: the page's, or the refusal it shows, whose status the routes give. */
  | { kind: 'page'; status: number | DomainError; body: string; stripe?: boolean }
  | { kind: 'redirect'; location: string }
  /** A first visit's valid token: kept in a cookie of `path`, the browser sent on to `location` without it. */
  | { kind: 'enter'; location: string; path: string; token: string; maxAgeS: number; secure: boolean }
  | { kind: 'pdf'; fileName: string; bytes: Buffer };

export interface PageServices {
  db: Db;
  clock: Clock;
  sessions: PortalSessions;
  reader: PortalReader;
  actions: PortalActions;
  invoices: InvoiceService;
  creditNotes: CreditNoteService;
  /** The instance secret the forms' CSRF tokens are signed with. */
  secret: () => Promise<string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The portal's pages (decision 0037): GET shows, POST acts then redirects (303) back, the PDF of an invoice. */
export class PortalPages {
  constructor(private readonly services: PageServices) {}

  private scopeOf(access: PortalAccess, place: PortalPlace): PortalScope {
    return { organizationId: access.organizationId, environmentId: access.environmentId, environment: access.environment, baseUrl: place.baseUrl, apiBase: place.apiBase };
  }

  /** A document's language for this reader: their locale, else their browser's (the document falls back to the seller's). */
  private readerLanguage = (access: PortalAccess, place: PortalPlace): string | null => access.customer.locale ?? browserLanguage(place.acceptLanguage);

  private path = (place: PortalPlace) => `${place.prefix}/portal/${encodeURIComponent(place.slug)}/`;

  /** A visit through the portal link (`?token=`): the same page, its token moved into a cookie. */
  async enter(place: PortalPlace, query: Sent): Promise<PortalAnswer> {
    const access = await this.services.sessions.verify(query.token, place.slug, place.environment);
    const rest = Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[0] !== 'token' && e[1] !== undefined));
    const maxAgeS = Math.floor((access.expiresAt.getTime() - this.services.clock.now().getTime()) / 1000);
    const secure = place.baseUrl.startsWith('https:');
    return { kind: 'enter', location: pageHref({ path: this.path(place) }, rest), path: this.path(place), token: access.token, maxAgeS, secure };
  }

  async view(place: PortalPlace, query: Sent): Promise<PortalAnswer> {
    const access = await this.services.sessions.verify(query.token, place.slug, place.environment);
    const scope = this.scopeOf(access, place);
    const model = await this.services.reader.model(access, scope);
    const change = query.change ? await this.changeAsked(scope, model, query.change, query.choice ?? '') : null;
    const notice = query.done && isNotice(query.done) ? query.done : null;
    return this.page(place, access, model, { notice, problem: null, change }, 200);
  }

  async submit(place: PortalPlace, sent: Sent): Promise<PortalAnswer> {
    const access = await this.services.sessions.verify(sent.token, place.slug, place.environment);
    if (!formTokenValid(await this.services.secret(), 'portal', access.sessionId, sent.csrf_token)) throw new PortalForgedForm();
    const nonce = sent.nonce ?? '';
    const action = sent.action ?? '';
    if (!UUID.test(nonce) || !isAction(action)) throw portalRefusal('This form is not one the portal knows. Reload the page and try again.', null, 'refused.unknownForm');
    const scope = this.scopeOf(access, place);
    const model = await this.services.reader.model(access, scope);
    const home = { path: this.path(place) };
    if (!(await repo.claimSubmission(this.services.db, access.sessionId, nonce, this.services.clock.now()))) {
      return { kind: 'redirect', location: pageHref(home, { done: 'duplicate' }) };
    }
    try {
      await this.services.actions.run(action, { access, scope, model, sent });
    } catch (error) {
      await repo.releaseSubmission(this.services.db, access.sessionId, nonce);
      if (!(error instanceof DomainError)) throw error;
      const fresh = await this.services.reader.model(access, scope);
      return this.page(place, access, fresh, { notice: null, problem: refusalProblem(error), change: null }, error);
    }
    return { kind: 'redirect', location: pageHref(home, { done: action }) };
  }

  /** An invoice's PDF, when the invoice is this customer's (another's is 404). */
  async pdf(place: PortalPlace, file: string, query: Sent): Promise<PortalAnswer> {
    const access = await this.services.sessions.verify(query.token, place.slug, place.environment);
    const id = file.replace(/\.pdf$/i, '');
    const scope = this.scopeOf(access, place);
    const invoice = await this.services.invoices.get(scope, id).catch((error: unknown) => {
      if (isNotFound(error)) return null;
      throw error;
    });
    if (!invoice || invoice.customer.customerId !== access.customer.customer_id) throw new PortalNotFound('invoice');
    const { fileName, bytes } = await this.services.invoices.pdf(scope, id, { language: this.readerLanguage(access, place) });
    return { kind: 'pdf', fileName, bytes };
  }

  /** A credit note's PDF, when the credit note is this customer's (another's is 404). */
  async creditNotePdf(place: PortalPlace, file: string, query: Sent): Promise<PortalAnswer> {
    const access = await this.services.sessions.verify(query.token, place.slug, place.environment);
    const id = file.replace(/\.pdf$/i, '');
    const scope = this.scopeOf(access, place);
    const note = await this.services.creditNotes.get(scope, id).catch((error: unknown) => {
      if (isNotFound(error)) return null;
      throw error;
    });
    if (!note || note.customer.customerId !== access.customer.customer_id) throw new PortalNotFound('credit note');
    const { fileName, bytes } = await this.services.creditNotes.pdf(scope, id, { language: this.readerLanguage(access, place) });
    return { kind: 'pdf', fileName, bytes };
  }

  private async changeAsked(scope: PortalScope, model: PortalModel, subscriptionId: string, choice: string): Promise<ChangeAsked> {
    const [plan = '', period = ''] = choice.split('|');
    try {
      ownChange(model, subscriptionId, plan, period);
      return { subscriptionId, plan, period, preview: await this.services.actions.preview(scope, subscriptionId, plan, period), problem: null };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { subscriptionId, plan, period, preview: null, problem: refusalProblem(error) };
    }
  }

  private async page(
    place: PortalPlace,
    access: PortalAccess,
    model: PortalModel,
    shown: Pick<PageState, 'notice' | 'problem' | 'change'>,
    status: number | DomainError,
  ): Promise<PortalAnswer> {
    const owner = await repo.environmentOfSlug(this.services.db, place.slug, place.environment);
    const seller = owner ? await sellerOnPages(this.services.db, owner.organizationId, owner.environmentId) : null;
    const lang = negotiateLanguage({ customerLocale: access.customer.locale, acceptLanguage: place.acceptLanguage, sellerLanguage: seller?.language });
    const state: PageState = {
      prefix: place.prefix,
      path: this.path(place),
      csrf: formToken(await this.services.secret(), 'portal', access.sessionId),
      nonce: randomUUID(),
      sandbox: access.environment === 'sandbox',
      stripe: await stripeElementKey(this.services.db, access),
      organizationName: owner?.organizationName ?? '',
      seller,
      t: translator(lang),
      customer: access.customer,
      model,
      ...shown,
    };
    return { kind: 'page', status, body: portalPage(state), stripe: portalUsesStripeJs(state) };
  }
}
