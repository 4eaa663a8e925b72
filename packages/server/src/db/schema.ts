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

export interface ProductsTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  identifier: string;
  name: string;
  description: string;
  tax_code: string;
  created_at: Timestamp;
  modified_at: Timestamp;
  archived_at: Timestamp | null;
}

export interface ProductSettingsTable {
  product_id: string;
  environment_id: string;
  vpn: Generated<boolean>;
  tor: Generated<boolean>;
  proxy: Generated<boolean>;
  currency: string | null;
  product_url: string | null;
  modified_at: Timestamp;
}

export interface ProductImagesTable {
  id: string;
  environment_id: string;
  product_id: string;
  name: string | null;
  storage_key: string;
  content_type: string;
  size: ColumnType<string, number, number>;
  ordering: number;
  thumbnail: boolean;
  enabled: boolean;
  created_at: Timestamp;
}

export interface FeaturesTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  identifier: string;
  name: string;
  description: string;
  feature_type: 'BOOLEAN' | 'CUSTOMIZABLE' | 'METER';
  feature_details: Json<Record<string, unknown>>;
  meter: Json<Record<string, unknown>>;
  metadata: Json<Record<string, unknown>>;
  created_at: Timestamp;
  modified_at: Timestamp;
  archived_at: Timestamp | null;
}

export interface PlansTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  identifier: string;
  product_id: string;
  published_version: number | null;
  created_at: Timestamp;
  archived_at: Timestamp | null;
}

export interface PlanVersionsTable {
  id: string;
  environment_id: string;
  plan_id: string;
  version: number;
  name: string;
  description: string;
  metadata: Json<Record<string, unknown>>;
  is_visible: boolean;
  license: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  links: Json<Array<{ name: string; url: string }>>;
  ordering: number;
  created_at: Timestamp;
  modified_at: Timestamp;
  published_at: Timestamp | null;
  publish_options: ColumnType<Record<string, unknown> | null, string | null, string | null>;
}

export interface PlanPricesTable {
  id: string;
  environment_id: string;
  plan_version_id: string;
  position: number;
  price_type: 'FREE' | 'PAID' | 'CUSTOM';
  currency: string;
  free_trial: boolean;
  trial_period: number;
  enabled: boolean;
  tax_behavior: 'INCLUSIVE' | 'EXCLUSIVE' | 'UNSPECIFIED';
  charge_catalog_price: Json<unknown[]>;
}

export interface PlanEntitlementsTable {
  id: string;
  seq: Generated<string>;
  environment_id: string;
  plan_version_id: string;
  feature_id: string;
  details: Json<Record<string, unknown>>;
}

export interface PlanFilesTable {
  plan_version_id: string;
  id: string;
  environment_id: string;
  name: string;
  storage_key: string;
  content_type: string;
  size: ColumnType<string, number, number>;
  ordering: number;
  enabled: boolean;
  created_at: Timestamp;
}

export interface MediaUploadsTable {
  id: string;
  environment_id: string;
  file_key: string;
  file_name: string;
  content_type: string;
  max_size: ColumnType<string, number, number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  uploaded_at: Timestamp | null;
  size: ColumnType<string | null, number | null, number | null>;
  stored_key: string | null;
  consumed_at: Timestamp | null;
}

export interface InstanceSecretsTable {
  name: string;
  value: string;
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
  products: ProductsTable;
  product_settings: ProductSettingsTable;
  product_images: ProductImagesTable;
  features: FeaturesTable;
  plans: PlansTable;
  plan_versions: PlanVersionsTable;
  plan_prices: PlanPricesTable;
  plan_entitlements: PlanEntitlementsTable;
  plan_files: PlanFilesTable;
  media_uploads: MediaUploadsTable;
  instance_secrets: InstanceSecretsTable;
  schema_migrations: SchemaMigrationsTable;
}
