import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

/**
 * A request's logger that becomes a real child logger (with the request id
 * bound) only when the request logs: below `info` most requests log nothing,
 * and a child logger per request costs a measurable share of a cached
 * entitlement check.
 */
class RequestLogger {
  private real: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.logger.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: unknown[]): void {
    (this.logger.fatal as (...a: unknown[]) => void)(...args);
  }

  error(...args: unknown[]): void {
    (this.logger.error as (...a: unknown[]) => void)(...args);
  }

  warn(...args: unknown[]): void {
    (this.logger.warn as (...a: unknown[]) => void)(...args);
  }

  info(...args: unknown[]): void {
    (this.logger.info as (...a: unknown[]) => void)(...args);
  }

  debug(...args: unknown[]): void {
    (this.logger.debug as (...a: unknown[]) => void)(...args);
  }

  trace(...args: unknown[]): void {
    (this.logger.trace as (...a: unknown[]) => void)(...args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: a RequestLogger in place of a child made for every request. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
