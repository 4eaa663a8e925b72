import http from 'node:http';
import https from 'node:https';
import { publicOnlyLookup, refuseUrlSyntax, type TargetRules } from './url-guard.js';

const EXCERPT_BYTES = 2048;
/** What is read of an answer at most; the rest is not waited for. */
const READ_LIMIT_BYTES = 64 * 1024;

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Where the endpoint's environment may deliver (url-guard.ts). */
  rules: TargetRules;
  /** Keep-alive connections to reuse (EndpointAgents); none: a connection of its own, closed after. */
  agent?: http.Agent;
}

export interface SendResult {
  statusCode: number | null;
  /** 2xx; a redirect is a failure (it is not followed). */
  ok: boolean;
  error: string | null;
  responseExcerpt: string;
  retryAfter: string | undefined;
  durationMs: number;
}

function failure(started: number, error: string, statusCode: number | null = null): SendResult {
  return { statusCode, ok: false, error, responseExcerpt: '', retryAfter: undefined, durationMs: Math.round(performance.now() - started) };
}

/**
 * POSTs one delivery and reports what came back, never throwing. Where the rules say
 * public only, the connection may only reach public addresses, checked at connect time.
 */
export function sendDelivery(request: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const refused = refuseUrlSyntax(request.url, request.rules);
  if (refused) return Promise.resolve(failure(started, refused));
  const url = new URL(request.url);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      agent: request.agent ?? false,
      ...(request.rules.publicOnly ? { lookup: publicOnlyLookup as never } : {}),
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish(failure(started, `no answer within ${request.timeoutMs} ms`));
    }, request.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish(failure(started, error.message || error.code || 'connection failed')));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let read = 0;
      const done = () => {
        const statusCode = res.statusCode ?? null;
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
        const retryAfter = res.headers['retry-after'];
        const error = ok ? null : statusCode !== null && statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `answered ${statusCode}`;
        finish({ statusCode, ok, error, responseExcerpt: excerpt, retryAfter, durationMs: Math.round(performance.now() - started) });
      };
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read <= READ_LIMIT_BYTES) chunks.push(chunk);
        else {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    req.end(request.body);
  });
}

/**
 * Idle kept-alive connections close after this: well below common servers' keep-alive
 * (Node's 5 s), so that a receiver rarely closes one just as it is reused (that attempt
 * would fail, and be retried on the schedule like any other).
 */
const IDLE_MS = 1000;
/** Endpoints whose agents are kept; a dropped agent's idle connections close on their own. */
const MAX_AGENTS = 1000;

/**
 * Keep-alive agents, one per endpoint, so that a busy endpoint's deliveries do not each
 * open a connection: a connection is only ever reused for the endpoint that opened it,
 * and so within its environment's checks (production's public-address lookup runs when
 * a connection is made, on the address it connects to).
 */
export class EndpointAgents {
  private readonly agents = new Map<string, http.Agent>();

  constructor(private readonly maxSockets: number) {}

  for(endpointId: string, url: string): http.Agent {
    const secure = url.startsWith('https:');
    const key = `${endpointId} ${secure ? 'https' : 'http'}`;
    const known = this.agents.get(key);
    this.agents.delete(key);
    const agent = known ?? new (secure ? https.Agent : http.Agent)({ keepAlive: true, timeout: IDLE_MS, maxSockets: this.maxSockets, maxFreeSockets: this.maxSockets });
    // Most recently used last; the least recently used is dropped beyond MAX_AGENTS.
    this.agents.set(key, agent);
    if (this.agents.size > MAX_AGENTS) this.agents.delete(this.agents.keys().next().value as string);
    return agent;
  }

  /** Closes every connection (when the dispatcher stops). */
  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
