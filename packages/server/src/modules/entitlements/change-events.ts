import type { CheckEntitlementsResponse, EntitlementChangeEvent, EntitlementDetail } from '@billow/contract';
import type { NumberedChange } from '../../edge-cache/change-hub.js';
import type { EntitlementService } from './service.js';

/** One server-sent event, as written to the stream. */
export function sseOf(id: string, event: EntitlementChangeEvent): string {
  return `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The events of the change streams with the entitlements they carry. A change heard by the
 * hub is one object passed to every stream of its environment: its event (the customer's new
 * entitlements, computed once, through the process's entitlement cache) and its text are made
 * once per change, whatever the number of streams that send it.
 */
export class ChangeEvents {
  private readonly made = new WeakMap<NumberedChange, Promise<string>>();

  constructor(private readonly service: EntitlementService) {}

  /** The text of a change of an environment's stream: a customer's change carries their entitlements. */
  textOf(environmentId: string, numbered: NumberedChange): Promise<string> {
    let text = this.made.get(numbered);
    if (!text) {
      text = this.withEntitlements(numbered, (customerId) => this.entitlementsOf(environmentId, customerId));
      this.made.set(numbered, text);
    }
    return text;
  }

  /** The texts of changes a stream missed, each customer's entitlements (today's) computed once. */
  textsOfMissed(environmentId: string, missed: readonly NumberedChange[]): Promise<string>[] {
    const now = new Map<string, Promise<EntitlementDetail[] | null>>();
    const entitlementsOf = (customerId: string) => {
      let entitlements = now.get(customerId);
      if (!entitlements) now.set(customerId, (entitlements = this.entitlementsOf(environmentId, customerId)));
      return entitlements;
    };
    return missed.map((numbered) => this.withEntitlements(numbered, entitlementsOf));
  }

  private withEntitlements(numbered: NumberedChange, entitlementsOf: (customerId: string) => Promise<EntitlementDetail[] | null>): Promise<string> {
    const { change } = numbered;
    if (change.type !== 'customer') return Promise.resolve(sseOf(numbered.id, change));
    return entitlementsOf(change.customerId).then((entitlements) =>
      sseOf(numbered.id, { type: 'customer', customerId: change.customerId, ...(entitlements ? { entitlements } : {}) }),
    );
  }

  /** A customer's answer now, as GET /entitlements/ gives it: 404 for an unknown customer. */
  answerOf(environmentId: string, customerId: string): Promise<CheckEntitlementsResponse> {
    return this.service.check(environmentId, customerId);
  }

  /** A customer's entitlements now, as GET /entitlements/ lists them; null when they cannot be computed (unknown customer, database down). */
  async entitlementsOf(environmentId: string, customerId: string): Promise<EntitlementDetail[] | null> {
    try {
      return (await this.answerOf(environmentId, customerId)).entitlements;
    } catch {
      return null;
    }
  }
}

/**
 * Writes events to one stream in the order they are queued, each once its text is ready:
 * texts are computed concurrently, but a customer's later answer is never sent before an
 * earlier one.
 */
export function orderedWriter(write: (text: string) => void): (text: Promise<string> | string) => void {
  let tail: Promise<unknown> = Promise.resolve();
  return (text) => {
    tail = tail.then(() => text).then(write, () => undefined);
  };
}
