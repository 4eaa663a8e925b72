/** What the catalog's services need to know of the caller: where, and how to link. */
export interface CatalogScope {
  organizationId: string;
  environmentId: string;
  /** Root URL of this server as the caller sees it. */
  baseUrl: string;
  /** The caller's API base, environment prefix included. */
  apiBase: string;
}
