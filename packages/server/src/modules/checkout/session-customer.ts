/**
 * Which customer a checkout session may act for (decision 0054). A server key's session
 * acts for the customer its customer_ref names, existing or not. A client key's or a buy
 * link's session was made by anyone who knows the public key or the product id: it acts
 * only for a customer it created itself, so it can neither show an existing customer's
 * email, name or currency nor attach a purchase or a card to them.
 */
import type { Executor, Tx } from '../../db/transaction.js';
import { randomBase62 } from '../../lib/crypto.js';
import { findCustomer, type CustomerRow } from '../customers/queries.js';
import type { SessionRow } from './repo.js';

type SessionCustomerFields = Pick<SessionRow, 'environment_id' | 'customer_ref' | 'customer_id' | 'customer_trusted'>;

/** The existing customer the page may show and price for; undefined when there is none it may use. */
export async function sessionCustomer(tx: Executor, session: SessionCustomerFields): Promise<CustomerRow | undefined> {
  if (!session.customer_ref) return undefined;
  const found = await findCustomer(tx, session.environment_id, session.customer_ref);
  if (!found || session.customer_trusted) return found;
  return found.id === session.customer_id ? found : undefined;
}

/**
 * The customer id the buyer is recorded under when they pay: the session's own, unless an
 * untrusted session names a customer that exists and is not its own, when the buyer becomes
 * a new customer with an id of Billow's (the named one is left untouched, and nothing on the
 * page told the buyer it exists).
 */
export async function buyerCustomerId(tx: Tx, session: SessionCustomerFields): Promise<string> {
  const generated = `cus_${randomBase62(20)}`;
  if (!session.customer_ref) return generated;
  if (session.customer_trusted || session.customer_id !== null) return session.customer_ref;
  const taken = await findCustomer(tx, session.environment_id, session.customer_ref);
  return taken ? generated : session.customer_ref;
}
