/**
 * A local stand-in for the part of Stripe's API that Billow calls, on 127.0.0.1, for the
 * official library to talk to (its host/port/protocol options): no request leaves the
 * machine. Objects have the fields of the library's own types (Stripe.PaymentIntent,
 * Stripe.Refund, ...) that Billow reads. Like Stripe, a repeated Idempotency-Key answers
 * the first answer again (status and body), and the same key with other parameters is a
 * 400 idempotency_error.
 *
 * What a card does is decided by its PaymentMethod id, as with Stripe's test methods:
 * ids containing `chargeDeclined`, `insufficientFunds`, `stolen` or `threeDSecure`
 * decline or ask for authentication; any other `pm_…` succeeds. `setOutcome` changes a
 * method's behaviour later (a card that starts failing renewals). `POST /v1/payment_methods`
 * makes such an id from one of Stripe's test card numbers, so that a test can run against
 * this stand-in and against localstripe alike (test/stripe/backends.ts).
 *
 * Idempotency-Key, as Stripe documents it: a key is kept with its request's method, path
 * and parameters; sent again with the same, the first answer comes back (with
 * `Idempotent-Replayed: true`); with anything else, 400 `idempotency_error`. 5xx answers
 * are not kept.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type CardBehaviour = 'succeeds' | 'declined' | 'insufficient_funds' | 'stolen' | 'three_d_secure' | 'processing';

export interface StoredIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  status: string;
  description: string | null;
  metadata: Record<string, string>;
  off_session: boolean;
  last_payment_error: null | { type: string; code: string; decline_code?: string; message: string };
  next_action: null | { type: string };
  client_secret: string;
  created: number;
  livemode: boolean;
}

interface Answer {
  status: number;
  body: unknown;
  replayed?: boolean;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function behaviourOf(paymentMethod: string): CardBehaviour {
  if (paymentMethod.includes('chargeDeclined')) return 'declined';
  if (paymentMethod.includes('insufficientFunds')) return 'insufficient_funds';
  if (paymentMethod.includes('stolen')) return 'stolen';
  if (paymentMethod.includes('threeDSecure')) return 'three_d_secure';
  if (paymentMethod.includes('processing')) return 'processing';
  return 'succeeds';
}

const cardError = (code: string, message: string, declineCode?: string) => ({
  type: 'card_error',
  code,
  ...(declineCode ? { decline_code: declineCode } : {}),
  message,
});

export class StripeStandIn {
  readonly intents = new Map<string, StoredIntent>();
  readonly refunds: Array<{ id: string; payment_intent: string; amount: number; idempotencyKey: string | null }> = [];
  /** Every request received, in order: method, path and Idempotency-Key. */
  readonly requests: Array<{ method: string; path: string; idempotencyKey: string | null }> = [];
  private readonly replies = new Map<string, { params: string; answer: Answer }>();
  private readonly outcomes = new Map<string, CardBehaviour>();
  private readonly customers = new Map<string, { email: string | null }>();
  private failures = 0;
  private keyRefusal: { afterCreating: boolean } | null = null;
  private lostAnswers = { count: 0, path: '' };
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  setOutcome(paymentMethod: string, behaviour: CardBehaviour): void {
    this.outcomes.set(paymentMethod, behaviour);
  }

  /** Answers every request 401, as Stripe does for a revoked or mistyped secret key. */
  rejectKeys = false;

  /** The next `count` requests answer 500 api_error (the library retries them). */
  failNext(count: number): void {
    this.failures = count;
  }

  /**
   * The next `count` answers to POSTs with an Idempotency-Key are lost on the way back: the
   * request is carried out (and its answer kept under the key, as Stripe keeps it), but the
   * caller gets a 500. The library's retries under the same key are lost likewise. Only
   * answers to `path` are lost (PaymentIntents by default).
   */
  loseNextAnswers(count: number, path = '/v1/payment_intents'): void {
    this.lostAnswers = { count, path };
  }

  /**
   * The next POST with an Idempotency-Key answers 400 idempotency_error, as if Billow had
   * used the key before with other parameters; `afterCreating`: that first request is
   * carried out first (a PaymentIntent exists under the key).
   */
  refuseNextKey(options: { afterCreating: boolean }): void {
    this.keyRefusal = options;
  }

  /** Idempotency keys are forgotten, as Stripe forgets them after 24 hours: a key sent again makes a new object. */
  forgetKeys(): void {
    this.replies.clear();
  }

  /** The buyer finished 3-D Secure (or a processing payment ended): the intent's new state. */
  finish(intentId: string, succeeded: boolean): StoredIntent {
    const intent = this.intents.get(intentId)!;
    intent.status = succeeded ? 'succeeded' : 'requires_payment_method';
    intent.next_action = null;
    intent.last_payment_error = succeeded ? null : cardError('payment_intent_authentication_failure', 'The customer did not authenticate.');
    return intent;
  }

  intentOfKey(billowKey: string): StoredIntent | undefined {
    return [...this.intents.values()].find((intent) => intent.metadata.billow_key === billowKey);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    const path = (req.url ?? '').split('?')[0]!;
    this.requests.push({ method: req.method ?? '', path, idempotencyKey: key });
    const answer = this.answer(req, path, raw, key);
    res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': id('req'), ...(answer.replayed ? { 'idempotent-replayed': 'true' } : {}) });
    res.end(JSON.stringify(answer.body));
  }

  private answer(req: http.IncomingMessage, path: string, raw: string, key: string | null): Answer {
    if (this.rejectKeys || !/^Bearer (sk|rk)_(live|test)_/.test(req.headers.authorization ?? '')) {
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    }
    if (this.failures > 0) {
      this.failures--;
      return { status: 500, body: { error: { type: 'api_error', message: 'Something went wrong on the stand-in' } } };
    }
    if (req.method === 'POST' && key) {
      const answer = this.idempotent(key, `POST ${path}\n${raw}`, () => this.route('POST', path, new URLSearchParams(raw)));
      if (this.lostAnswers.count === 0 || this.lostAnswers.path !== path) return answer;
      this.lostAnswers.count--;
      return { status: 500, body: { error: { type: 'api_error', message: 'The answer was lost on the way back' } } };
    }
    const [, query = ''] = (req.url ?? '').split('?');
    return this.route(req.method ?? 'GET', path, new URLSearchParams(req.method === 'GET' ? query : raw));
  }

  private idempotent(key: string, request: string, run: () => Answer): Answer {
    const refusal = this.keyRefusal;
    this.keyRefusal = null;
    if (refusal?.afterCreating) run();
    const known = this.replies.get(key);
    if (refusal || (known && known.params !== request)) {
      return { status: 400, body: { error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' } } };
    }
    if (known) return { ...known.answer, replayed: true };
    const answer = run();
    if (answer.status < 500) this.replies.set(key, { params: request, answer });
    return answer;
  }

  private route(method: string | undefined, path: string, params: URLSearchParams): Answer {
    if (method === 'POST' && path === '/v1/customers') return this.createCustomer(params);
    if (method === 'POST' && path === '/v1/payment_methods') return createMethod(params);
    if (method === 'GET' && path === '/v1/payment_intents') return this.listIntents(params);
    const attach = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(path);
    if (method === 'POST' && attach) return this.attach(attach[1]!, params);
    if (method === 'POST' && path === '/v1/payment_intents') return this.createIntent(params);
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && intent) {
      const found = this.intents.get(intent[1]!);
      return found ? { status: 200, body: found } : missing(`No such payment_intent: '${intent[1]}'`);
    }
    if (method === 'POST' && path === '/v1/refunds') return this.refund(params);
    return missing(`Unrecognized request URL (${method}: ${path})`);
  }

  private createCustomer(params: URLSearchParams): Answer {
    const customer = { id: id('cus'), object: 'customer', email: params.get('email'), name: params.get('name'), metadata: metadataOf(params), created: now(), livemode: false };
    this.customers.set(customer.id, { email: customer.email });
    return { status: 200, body: customer };
  }

  private attach(paymentMethod: string, params: URLSearchParams): Answer {
    const customer = params.get('customer') ?? '';
    if (!paymentMethod.startsWith('pm_') || paymentMethod.includes('missing')) return missing(`No such PaymentMethod: '${paymentMethod}'`);
    if (!this.customers.has(customer)) return missing(`No such customer: '${customer}'`);
    const brand = paymentMethod.includes('mastercard') ? 'mastercard' : 'visa';
    return {
      status: 200,
      body: {
        id: paymentMethod,
        object: 'payment_method',
        type: 'card',
        customer,
        card: { brand, last4: paymentMethod.includes('mastercard') ? '4444' : '4242', exp_month: 12, exp_year: 2034, funding: 'credit', country: 'US' },
        created: now(),
        livemode: false,
      },
    };
  }

  private createIntent(params: URLSearchParams): Answer {
    const paymentMethod = params.get('payment_method') ?? '';
    const offSession = params.get('off_session') === 'true';
    const intent: StoredIntent = {
      id: id('pi'),
      object: 'payment_intent',
      amount: Number(params.get('amount')),
      currency: params.get('currency') ?? '',
      customer: params.get('customer'),
      payment_method: paymentMethod,
      status: 'succeeded',
      description: params.get('description'),
      metadata: metadataOf(params),
      off_session: offSession,
      last_payment_error: null,
      next_action: null,
      client_secret: '',
      created: now(),
      livemode: false,
    };
    intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
    this.intents.set(intent.id, intent);
    const behaviour = this.outcomes.get(paymentMethod) ?? behaviourOf(paymentMethod);
    const decline = (error: ReturnType<typeof cardError>): Answer => {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = error;
      return { status: 402, body: { error: { ...error, payment_intent: intent } } };
    };
    switch (behaviour) {
      case 'declined':
        return decline(cardError('card_declined', 'Your card was declined.', 'generic_decline'));
      case 'insufficient_funds':
        return decline(cardError('card_declined', 'Your card has insufficient funds.', 'insufficient_funds'));
      case 'stolen':
        return decline(cardError('card_declined', 'Your card was declined.', 'stolen_card'));
      case 'three_d_secure':
        if (offSession) return decline(cardError('authentication_required', 'Your card was declined. This transaction requires authentication.', 'authentication_required'));
        intent.status = 'requires_action';
        intent.next_action = { type: 'use_stripe_sdk' };
        return { status: 200, body: intent };
      case 'processing':
        intent.status = 'processing';
        return { status: 200, body: intent };
      default:
        return { status: 200, body: intent };
    }
  }

  private listIntents(params: URLSearchParams): Answer {
    const customer = params.get('customer');
    const since = Number(params.get('created[gte]') ?? 0);
    const data = [...this.intents.values()].filter((intent) => (!customer || intent.customer === customer) && intent.created >= since).reverse();
    return { status: 200, body: { object: 'list', url: '/v1/payment_intents', has_more: false, data } };
  }

  private refund(params: URLSearchParams): Answer {
    const intent = this.intents.get(params.get('payment_intent') ?? '');
    if (!intent) return missing(`No such payment_intent: '${params.get('payment_intent')}'`);
    if (intent.status !== 'succeeded') return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_not_refundable', message: 'This PaymentIntent has no successful charge to refund.' } } };
    const refund = { id: id('re'), object: 'refund', amount: Number(params.get('amount') ?? intent.amount), currency: intent.currency, payment_intent: intent.id, status: 'succeeded', metadata: metadataOf(params), created: now() };
    this.refunds.push({ id: refund.id, payment_intent: intent.id, amount: refund.amount, idempotencyKey: refund.metadata.billow_key ?? null });
    return { status: 200, body: refund };
  }
}

/** Stripe's test card numbers, as the behaviour this stand-in gives a PaymentMethod by its id. */
const TEST_CARDS: Record<string, string> = {
  '4000000000000002': 'chargeDeclined',
  '4000000000000341': 'chargeDeclined',
  '4000002760003184': 'threeDSecure',
  '4000002500003155': 'threeDSecure',
};

function createMethod(params: URLSearchParams): Answer {
  const number = params.get('card[number]') ?? '';
  if (params.get('type') !== 'card' || !/^\d{16}$/.test(number)) return { status: 400, body: { error: { type: 'invalid_request_error', message: 'Bad request' } } };
  return { status: 200, body: { id: id(`pm_card_${TEST_CARDS[number] ?? 'visa'}`), object: 'payment_method', type: 'card', created: now(), livemode: false } };
}

function missing(message: string): Answer {
  return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message } } };
}

function metadataOf(params: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of params) {
    const match = /^metadata\[(.+)\]$/.exec(name);
    if (match) metadata[match[1]!] = value;
  }
  return metadata;
}

const now = () => Math.floor(Date.now() / 1000);
