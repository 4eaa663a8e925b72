import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date, Date>;
type Json<T> = ColumnType<T, string, string>;

export interface PartnersTable {
  id: string;
  name: string;
  created_at: Timestamp;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  owner_email: string | null;
  partner_id: string | null;
  partner_external_id: string | null;
  created_at: Timestamp;
}

export interface EnvironmentsTable {
  id: string;
  organization_id: string;
  kind: 'sandbox' | 'production';
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  kind: 'server' | 'client' | 'partner';
  organization_id: string | null;
  environment_id: string | null;
  partner_id: string | null;
  prefix: string;
  key_hash: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface CustomersTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  customer_id: string;
  name: string | null;
  email: string | null;
  details: Json<Record<string, unknown>>;
  metadata: Json<Record<string, unknown>>;
  billing_address: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: Timestamp;
  modified_at: Timestamp;
  archived_at: Timestamp | null;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  request_hash: string;
  locked_until: Timestamp | null;
  response_status: number | null;
  response_body: string | null;
  created_at: Timestamp;
}

export interface SchemaMigrationsTable {
  version: string;
  applied_at: Generated<Date>;
}

export interface Database {
  partners: PartnersTable;
  organizations: OrganizationsTable;
  environments: EnvironmentsTable;
  api_keys: ApiKeysTable;
  customers: CustomersTable;
  idempotency_keys: IdempotencyKeysTable;
  schema_migrations: SchemaMigrationsTable;
}
