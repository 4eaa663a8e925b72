import { AsyncLocalStorage } from 'node:async_hooks';

/** Who causes the events written while some work runs; none (null) is the API or background work. */
export type Actor = 'customer_portal';

const current = new AsyncLocalStorage<Actor>();

/**
 * Runs `work` on behalf of `actor`: every event it records, through whichever service,
 * carries that actor (decision 0037). The services keep their signatures; the actor
 * follows the call, including across awaits.
 */
export function actingAs<T>(actor: Actor, work: () => Promise<T>): Promise<T> {
  return current.run(actor, work);
}

export function currentActor(): Actor | null {
  return current.getStore() ?? null;
}
