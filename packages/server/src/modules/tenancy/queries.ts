/** What other folders may read of tenancy: API keys (authentication), an organization's payment block and its environments. */
export { environmentById, findEnvironment, findKeyByHash, keysOfPrefixes, organizationBlock, type KeyRecord } from './repo.js';
