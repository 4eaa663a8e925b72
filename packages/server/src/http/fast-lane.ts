/**
 * The Edge's fast lane (decision 0045). A GET of a cached Edge read (an entitlement
 * check, a promotion) is answered in Node's request listener, before Fastify, when
 * every step of it is a hit: the key is in the key cache and admitted, the query is
 * plain, the answer is in memory, and the rate limit allows it. Anything else (a
 * miss, an error, a 429, an odd URL, shutdown) is handed to Fastify untouched and
 * answered there as before. A lane answer carries what Fastify's would: the same
 * status, body and headers, the request in /metrics and in the request log, and one
 * count against the key's rate limit.
 */
import http, { type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyServerOptions } from 'fastify';
import proxyAddr from '@fastify/proxy-addr';
import type { EnvironmentKind } from '../config.js';
import { keyRefusal, type KeyCache } from './auth.js';
import { loggedUrl } from './logged-url.js';
import { parseQuery } from './casing.js';
import { environmentOf } from './environment.js';
import { rateLimitHeaders, countedInLane, type LaneRateLimit } from './rate-limit.js';
import { requestIdOf, type RequestRecorder } from './observability.js';

/** A lane query: names as the route's schema has them (snake_case), each one value of 1 to 255 characters. */
export type LaneQuery = Readonly<Record<string, string>>;

/** Who asks, for answers that depend on it (a promotion's country). */
export interface LaneCaller {
  ip(): string;
  userAgent: string | undefined;
}

/** The route's answer when it is in memory, already JSON; undefined: Fastify serves the request. */
export type LaneAnswer = (environmentId: string, query: LaneQuery, caller: LaneCaller) => string | undefined;

export interface LaneRoute {
  /** The route as Fastify registered it, which /metrics labels it with: `/api/v1/entitlements/`. */
  url: string;
  /** Query names the lane takes; any other name sends the request to Fastify. */
  required: readonly string[];
  optional: readonly string[];
  /** Key kinds the route admits (its config.auth). */
  keys: readonly ('server' | 'client')[];
  answer: LaneAnswer;
}

/** What the lane shares with Fastify's hooks, handed over once they are registered. */
export interface LaneDeps {
  keys: KeyCache;
  rewriteUrl: (req: IncomingMessage) => string;
  rateLimit: LaneRateLimit;
  recorder: RequestRecorder;
  trustProxy: boolean;
  /** Counts the requests the lane answered (billow_http_fast_lane_requests_total). */
  answered: { inc(): void };
  /** Counts the lane steps that threw, whose requests Fastify then served (billow_http_fast_lane_failures_total). */
  failed: { inc(): void };
  log: { error(details: object, message: string): void };
  /** Test servers only (http/response-check.ts): the body of a 500 that replaces an answer its schema refuses, or null. */
  checkAnswer?: (routeUrl: string, body: string) => string | null;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const LIVENESS_PATH = '/healthz';
const LIVENESS_BODY = '{"status":"ok"}';
const MAX_QUERY_VALUE = 255;
/** Distinct (URL, host, key) requests remembered; past it, the memory starts over. */
const MAX_REMEMBERED = 10_000;
const BEARER = /^Bearer\s+(\S+)\s*$/i;
const trustEveryProxy = () => true;

/** A request the lane can answer, as read from its URL, host and key header. */
interface LaneRequest {
  route: LaneRoute;
  environment: EnvironmentKind;
  /** The key's secret, as the Bearer header carries it. */
  secret: string;
  query: LaneQuery;
}

export class FastLane {
  private readonly routes = new Map<string, LaneRoute>();
  /** Requests answered before, by URL, host and key header (`remember`). */
  private readonly requests = new Map<string, LaneRequest>();
  private deps: LaneDeps | null = null;
  private closing = false;

  constructor(private readonly enabled: boolean) {}

  /**
   * Fastify's serverFactory: the HTTP/1 server Fastify would make (same options and
   * timeouts), whose listener offers each request to the lane first.
   */
  readonly serverFactory = (framework: RequestListener, options: FastifyServerOptions & { http?: ServerOptions }): Server => {
    const server = http.createServer(options.http ?? {}, (req, res) => {
      if (this.answerLiveness(req, res)) return;
      if (!this.offerSafely(req, res, framework)) framework(req, res);
    });
    server.keepAliveTimeout = options.keepAliveTimeout ?? server.keepAliveTimeout;
    server.requestTimeout = options.requestTimeout ?? server.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  attach(deps: LaneDeps): void {
    this.deps = deps;
  }

  /** From shutdown on, every request goes to Fastify, which turns new ones away. */
  close(): void {
    this.closing = true;
  }

  /** Serves `path` (with or without its trailing slash) in the lane too. */
  route(path: string, route: LaneRoute): void {
    this.routes.set(path.replace(/\/$/, ''), route);
  }

  /**
   * `/healthz` is answered here, ahead of every request queued in Fastify's hooks: a
   * liveness probe with a short timeout must not restart a server that is only busy.
   * Its answer, metric and log line are those of the route in ops/routes.ts.
   */
  private answerLiveness(req: IncomingMessage, res: ServerResponse): boolean {
    const deps = this.deps;
    if (deps === null || this.closing || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const url = deps.rewriteUrl(req);
    if (url !== LIVENESS_PATH && url !== `${LIVENESS_PATH}/`) return false;
    const started = performance.now();
    const id = requestIdOf(req);
    res.writeHead(200, ['x-request-id', id, 'content-type', JSON_TYPE, 'content-length', String(LIVENESS_BODY.length)]);
    res.end(req.method === 'GET' ? LIVENESS_BODY : undefined);
    const ms = performance.now() - started;
    deps.recorder.latency.observe(req.method, LIVENESS_PATH, 200, ms / 1000);
    deps.recorder.requestLog?.info(
      { reqId: id, method: req.method, url: req.url, environment: environmentOf(req), statusCode: 200, ms: Math.round(ms * 100) / 100 },
      'request',
    );
    return true;
  }

  /**
   * A lane step that throws must not take the process down with it (a listener's
   * exception is uncaught): the request goes to Fastify, which answers it in the
   * one error format, unless an answer was already under way.
   */
  private offerSafely(req: IncomingMessage, res: ServerResponse, framework: RequestListener): boolean {
    try {
      return this.offer(req, res, framework);
    } catch (error) {
      this.stepFailed(req, error);
      if (!res.headersSent) return false;
      res.destroy();
      return true;
    }
  }

  /** A step that threw is a defect to see, not only a slower answer: logged (the URL without its secrets) and counted. */
  private stepFailed(req: IncomingMessage, error: unknown): void {
    this.deps?.failed.inc();
    this.deps?.log.error({ err: error, method: req.method, url: loggedUrl(req.url ?? '') }, 'fast lane step failed; the request is served by the framework');
  }

  /** True when the lane took the request (answered it, or will); false: Fastify serves it. */
  private offer(req: IncomingMessage, res: ServerResponse, framework: RequestListener): boolean {
    const deps = this.deps;
    if (!this.enabled || deps === null || this.closing || req.method !== 'GET') return false;
    const started = performance.now();
    const header = req.headers.authorization;
    if (header === undefined) return false;
    const memo = `${req.url}\n${req.headers.host ?? ''}\n${header}`;
    const known = this.requests.get(memo);
    const request = known ?? this.read(req, deps, header);
    if (request === null) return false;
    const key = deps.keys.cached(request.secret);
    if (key === undefined || keyRefusal(request.secret, key, request.environment, request.route.keys) !== null) return false;
    const caller: LaneCaller = { ip: () => clientIp(req, deps.trustProxy), userAgent: req.headers['user-agent'] };
    const body = request.route.answer(key.environmentId!, request.query, caller);
    if (body === undefined) return false;
    if (known === undefined) this.remember(memo, request);
    const send = (headers: string[]) => this.send(req, res, { request, started, headers, body });
    const counted = deps.rateLimit.hit(key.id);
    if (!(counted instanceof Promise)) {
      const headers = rateLimitHeaders(counted, deps.rateLimit.max);
      if (headers === null) return countedInLane(req, counted), false;
      send(headers);
      return true;
    }
    counted
      .then((count) => {
        const headers = rateLimitHeaders(count, deps.rateLimit.max);
        if (headers !== null) return send(headers);
        countedInLane(req, count);
        framework(req, res);
      })
      .catch((error: unknown) => {
        this.stepFailed(req, error);
        if (res.headersSent) res.destroy();
        else framework(req, res);
      });
    return true;
  }

  /** What the lane reads of a request's URL, host and key header; null when it is not the lane's. */
  private read(req: IncomingMessage, deps: LaneDeps, header: string): LaneRequest | null {
    const url = deps.rewriteUrl(req);
    if (url.includes('%00') || url.includes('\u0000')) return null;
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const route = this.routes.get(path.endsWith('/') ? path.slice(0, -1) : path);
    if (route === undefined) return null;
    const secret = BEARER.exec(header)?.[1];
    if (secret === undefined) return null;
    const query = laneQuery(mark === -1 ? '' : url.slice(mark + 1), route);
    return query === null ? null : { route, environment: environmentOf(req), secret, query };
  }

  /**
   * Keeps what `read` made of an answered request: the next request with the same
   * URL, host and key header skips the parsing. Its key is still checked on each
   * request, so a revoked or expired key is refused as before.
   */
  private remember(memo: string, request: LaneRequest): void {
    if (this.requests.size >= MAX_REMEMBERED) this.requests.clear();
    this.requests.set(memo, request);
  }

  private send(
    req: IncomingMessage,
    res: ServerResponse,
    answer: { request: LaneRequest; started: number; headers: string[]; body: string },
  ): void {
    const deps = this.deps!;
    const id = requestIdOf(req);
    const refused = deps.checkAnswer?.(answer.request.route.url, answer.body) ?? null;
    const body = refused ?? answer.body;
    res.writeHead(refused === null ? 200 : 500, ['x-request-id', id, ...answer.headers, 'content-type', JSON_TYPE, 'content-length', String(Buffer.byteLength(body))]);
    res.end(body);
    deps.answered.inc();
    const ms = performance.now() - answer.started;
    deps.recorder.latency.observe('GET', answer.request.route.url, 200, ms / 1000);
    deps.recorder.requestLog?.info(
      { reqId: id, method: 'GET', url: loggedUrl(req.url ?? ''), environment: answer.request.environment, statusCode: 200, ms: Math.round(ms * 100) / 100 },
      'request',
    );
  }
}

/** The route's query when it is plain: only its names, each once, each 1 to 255 characters; null otherwise. */
function laneQuery(text: string, route: LaneRoute): LaneQuery | null {
  const parsed = parseQuery(text);
  const query: Record<string, string> = {};
  for (const name in parsed) {
    const value = parsed[name];
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_QUERY_VALUE) return null;
    if (!route.required.includes(name) && !route.optional.includes(name)) return null;
    query[name] = value;
  }
  return route.required.every((name) => name in query) ? query : null;
}

/** The caller's address as Fastify's request.ip gives it: behind trusted proxies, the farthest address. */
function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (!trustProxy) return req.socket.remoteAddress ?? '';
  const addresses = proxyAddr.all(req, trustEveryProxy);
  return addresses[addresses.length - 1] ?? '';
}
