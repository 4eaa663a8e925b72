import { Redis } from 'ioredis';

/**
 * Where the Redis-backed suites find Redis. `.ci/run` sets REDIS_URL, and then an
 * unreachable Redis fails the run instead of skipping; elsewhere the local default is
 * tried and a suite that cannot reach it says why it skips.
 */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function ping(url: string): Promise<string | null> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    probe.disconnect();
  }
}

/** True when the Redis suites can run; throws when REDIS_URL was given but Redis does not answer. */
export async function redisAvailable(suite: string): Promise<boolean> {
  const failure = await ping(REDIS_URL);
  if (failure === null) return true;
  if (process.env.REDIS_URL) {
    throw new Error(`REDIS_URL is set (${redactedUrl(REDIS_URL)}) but Redis does not answer: ${failure}`);
  }
  console.warn(`[${suite}] Redis tests skipped: nothing answers at ${REDIS_URL} (${failure}); set REDIS_URL to run them`);
  return false;
}

function redactedUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
