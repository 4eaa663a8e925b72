import { sandboxSeller } from '../../server/test/edge-support.js';
import { uniqueId, type TestOrg, type TestServer } from '../../server/test/harness.js';

const meter = { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } };

/** A new organization's sandbox with a meter of API calls and one plan (hard limit) per limit asked for. */
export async function meteredSandbox(server: TestServer, limits: readonly number[]) {
  const org: TestOrg = await server.createOrg();
  const seller = await sandboxSeller(server, org.sandbox.serverKey);
  const featureId = (await seller.api.feature({ name: 'API calls', identifier: uniqueId('calls'), featureType: 'METER', featureDetails: meter })).identifier as string;
  const plans: string[] = [];
  for (const value of limits) plans.push(await seller.plan([{ feature: featureId, details: { value, hardLimit: true } }]));
  return { org, seller, featureId, plans };
}
