import { Type, type Static } from 'typebox';
import { NullableString, Timestamp } from './common.js';

export const PartnerOrganizationCreate = Type.Object(
  {
    externalId: Type.String({ minLength: 1, maxLength: 128, description: "The partner's own id; unique per partner" }),
    email: Type.String({ format: 'email', maxLength: 254, description: 'Owner email; unique across Billow' }),
    businessName: Type.Optional(NullableString({ maxLength: 200 })),
  },
  { additionalProperties: false, title: 'PartnerOrganizationCreate' },
);
export type PartnerOrganizationCreate = Static<typeof PartnerOrganizationCreate>;

const keyField = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const PartnerOrganization = Type.Object(
  {
    userId: Type.Union([Type.Integer(), Type.Null()]),
    organizationIdentifier: Type.String({ format: 'uuid' }),
    organizationSlug: Type.String(),
    businessName: Type.Union([Type.String(), Type.Null()]),
    email: Type.String(),
    partnerExternalId: Type.String(),
    serverKey: keyField('Production server key: shown once, in the create response; null on later reads'),
    clientKey: keyField('Production client key: shown once, in the create response; null on later reads'),
    sandboxServerKey: keyField('Sandbox server key: shown once, in the create response; null on later reads'),
    sandboxClientKey: keyField('Sandbox client key: shown once, in the create response; null on later reads'),
    createdOn: Timestamp,
  },
  { title: 'PartnerOrganization' },
);
export type PartnerOrganization = Static<typeof PartnerOrganization>;

export const PartnerOrganizationList = Type.Object(
  { results: Type.Array(PartnerOrganization), count: Type.Integer() },
  { title: 'PartnerOrganizationList' },
);

export const PartnerOrganizationListQuery = Type.Object({
  external_id: Type.Optional(Type.String({ maxLength: 128 })),
});
