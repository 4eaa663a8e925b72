/** What other folders may read of tenancy: API keys (authentication) and an organization's payment block. */
export { environmentById, findKeyByHash, keysOfPrefixes, organizationBlock, type KeyRecord } from './repo.js';
