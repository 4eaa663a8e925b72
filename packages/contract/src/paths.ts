import { Type, type Static } from 'typebox';
import { PlanPath, EntitlementDetails } from './catalog.js';

/** The path parameters and small answers of routes that had them only inline, so that the operation table can name them. */

export const ProductPath = Type.Object({ pk: Type.String({ minLength: 1, maxLength: 200 }) });
export const ProductImagePath = Type.Object({
  product_pk: Type.String({ minLength: 1, maxLength: 200 }),
  pk: Type.String({ format: 'uuid' }),
});
export const ProductFilePath = Type.Object({ product_pk: Type.String({ format: 'uuid' }), pk: Type.String({ format: 'uuid' }) });
export const FeaturePath = Type.Object({ pk: Type.String({ minLength: 1, maxLength: 200 }) });
export const PlanFeaturePath = Type.Object({ ...PlanPath.properties, feature_id: Type.String({ minLength: 1, maxLength: 200 }) });
export const PlanFilePath = Type.Object({ ...PlanPath.properties, pk: Type.String({ format: 'uuid' }) });
export const SubscriptionPath = Type.Object({ subscriptionId: Type.String({ minLength: 1, maxLength: 100 }) });
export const PartnerExternalIdPath = Type.Object({ externalId: Type.String({ minLength: 1 }) });
export const PartnerOrganizationPath = Type.Object({ identifier: Type.String({ minLength: 1 }) });
export const MailAttachmentPath = Type.Object({ id: Type.String({ maxLength: 100 }), position: Type.Integer({ minimum: 0, maximum: 100 }) });
/** A member or an invitation of the team. */
export const TeamPath = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const ApiKeyPath = Type.Object({
  prefix: Type.String({ maxLength: 100, description: "The key's prefix, for example `sk_test_AbCd1234`" }),
});

/** A file the answer carries as bytes (a PDF, an attachment). */
export const BinaryFile = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' });
/** The empty answer of a 204. */
export const NoContent = Type.Null();

export const PlanEntitlementUpdated = Type.Object({ details: EntitlementDetails });
export type PlanEntitlementUpdated = Static<typeof PlanEntitlementUpdated>;

export const SubscriptionChanged = Type.Object({
  subscriptionId: Type.String(),
  checkoutUrl: Type.Optional(
    Type.String({ description: 'Ours, with activate_on_payment when the change waits for its payment: the hosted page where the customer pays it' }),
  ),
  checkoutSessionId: Type.Optional(Type.String({ description: 'Ours: the checkout session of that page' })),
});
export type SubscriptionChanged = Static<typeof SubscriptionChanged>;

export const SubscriptionCancelled = Type.Object({ message: Type.String() });
export type SubscriptionCancelled = Static<typeof SubscriptionCancelled>;
