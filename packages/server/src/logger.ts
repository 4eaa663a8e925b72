import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { LogFormat } from './config.js';

// Credentials a request's headers can carry (the portal's session travels in a cookie), should a request ever be logged whole.
const REDACTED_HEADERS = [
  'req.headers.authorization',
  'req.headers["x-billow-partner-key"]',
  'req.headers["x-kelviq-partner-key"]',
  'req.headers.cookie',
  'req.headers.referer',
  'res.headers["set-cookie"]',
];

/** A request's line reads as `GET /path 200 2.1 ms`; other lines keep their message. */
function humanMessage(log: Record<string, unknown>, messageKey: string): string {
  const message = String(log[messageKey] ?? '');
  if (message !== 'request' || typeof log.method !== 'string') return message;
  const environment = log.environment === 'sandbox' ? ' (sandbox)' : '';
  return `${log.method} ${String(log.url)} ${String(log.statusCode)} ${String(log.ms)} ms${environment}`;
}

/** Human-readable lines for a person at a terminal; written synchronously, so none is lost at exit. */
function prettyStream(): DestinationStream {
  // Loaded only for a person at a terminal: servers and commands writing JSON never pay for it.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pretty({
    sync: true,
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,method,url,statusCode,ms,environment',
    messageFormat: humanMessage,
    singleLine: true,
  });
}

export interface LogOutput {
  logger: Logger;
  /** Writes text to standard output after every line logged before it. */
  print(text: string): void;
}

/**
 * The process's logger on standard output. JSON lines are written asynchronously (in
 * batches, off the request's path), so other text for standard output goes through
 * the same stream to keep its place among them.
 */
export function createLogOutput(level: string, format: LogFormat): LogOutput {
  const options = {
    level,
    base: { service: 'billow' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_HEADERS, remove: true },
  };
  if (format === 'pretty' || (format === 'auto' && Boolean(process.stdout.isTTY))) {
    return { logger: pino(options, prettyStream()), print: (text) => process.stdout.write(text) };
  }
  const destination = pino.destination({ dest: 1, sync: false });
  return { logger: pino(options, destination), print: (text) => destination.write(text) };
}

export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  return createLogOutput(level, format).logger;
}
