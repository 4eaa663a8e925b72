import { Type, type Static } from 'typebox';

/** POST /portal/session/ (DOMAIN.md §2.13); the official client sends `customer_id`, renamed to camelCase on arrival. */
export const PortalSessionCreate = Type.Object(
  { customerId: Type.String({ minLength: 1, maxLength: 255, description: "The merchant's id of the customer (who must have an email)" }) },
  { title: 'PortalSessionCreate' },
);
export type PortalSessionCreate = Static<typeof PortalSessionCreate>;

export const PortalSessionCreated = Type.Object(
  {
    token: Type.String({ pattern: '^cpt-[0-9a-f-]{36}:[0-9a-f-]{36}$', description: 'Opens the portal for this customer until it expires' }),
    email: Type.String(),
    customerPortalUrl: Type.String({ format: 'uri', description: "Send the customer to customerPortalUrl + '?token=' + token" }),
  },
  { title: 'PortalSessionCreated' },
);
export type PortalSessionCreated = Static<typeof PortalSessionCreated>;

/** The reference's 400 body (`{customerId: [...]}`) with ours beside it; a malformed request has only ours. */
export const PortalSessionRefused = Type.Object(
  {
    customerId: Type.Optional(Type.Array(Type.String())),
    detail: Type.String(),
    code: Type.String(),
  },
  { title: 'PortalSessionRefused' },
);
