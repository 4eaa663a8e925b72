import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../../db/transaction.js';
import type { ProductFilesTable, ProductImagesTable, ProductSettingsTable, ProductsTable } from '../../../db/schema.js';
import { containsPattern, refersTo } from '../../../db/search.js';

export type ProductRow = Selectable<ProductsTable>;
export type ProductImageRow = Selectable<ProductImagesTable>;
export type ProductFileRow = Selectable<ProductFilesTable>;
export type ProductSettingsRow = Selectable<ProductSettingsTable>;
export const PRODUCT_IDENTIFIER_CONSTRAINT = 'products_identifier_key';

export async function insertProduct(db: Executor, row: Omit<ProductRow, 'seq' | 'archived_at'>): Promise<ProductRow> {
  return db.insertInto('products').values(row).returningAll().executeTakeFirstOrThrow();
}

/** By identifier, or else by id (an identifier may look like a UUID). */
export async function findProduct(
  db: Executor,
  environmentId: string,
  ref: string,
  options: { forUpdate?: boolean } = {},
): Promise<ProductRow | undefined> {
  let query = db
    .selectFrom('products')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where(refersTo(ref))
    .orderBy(sql`identifier = ${ref}`, 'desc')
    .limit(1);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

function listQuery(db: Executor, environmentId: string, search: string | undefined) {
  let query = db.selectFrom('products').where('environment_id', '=', environmentId).where('archived_at', 'is', null);
  if (search) {
    const pattern = containsPattern(search);
    query = query.where((eb) =>
      eb.or([eb('name', 'ilike', pattern), eb('identifier', 'ilike', pattern), eb('description', 'ilike', pattern)]),
    );
  }
  return query;
}

export async function countProducts(db: Executor, environmentId: string, search?: string): Promise<number> {
  const row = await listQuery(db, environmentId, search)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listProducts(
  db: Executor,
  environmentId: string,
  search: string | undefined,
  limit: number,
  offset: number,
): Promise<ProductRow[]> {
  return listQuery(db, environmentId, search).selectAll().orderBy('seq', 'desc').limit(limit).offset(offset).execute();
}

export async function updateProduct(
  db: Executor,
  id: string,
  changes: Partial<Pick<ProductRow, 'name' | 'description' | 'tax_code' | 'archived_at'>> & { modified_at: Date },
): Promise<ProductRow> {
  return db.updateTable('products').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function productsById(db: Executor, environmentId: string, ids: string[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('products').selectAll().where('environment_id', '=', environmentId).where('id', 'in', ids).execute();
}

/** Images and downloadable files: rows of a product's uploads, shown in their order. */
type UploadTable = 'product_images' | 'product_files';

function uploadsOf(db: Executor, table: UploadTable, productIds: string[]) {
  return db
    .selectFrom(table)
    .selectAll()
    .where('product_id', 'in', productIds)
    .orderBy('ordering')
    .orderBy('created_at')
    .orderBy('id');
}

export async function imagesOf(db: Executor, productIds: string[]): Promise<ProductImageRow[]> {
  return productIds.length === 0 ? [] : (uploadsOf(db, 'product_images', productIds).execute() as Promise<ProductImageRow[]>);
}

export async function filesOf(db: Executor, productIds: string[]): Promise<ProductFileRow[]> {
  return productIds.length === 0 ? [] : (uploadsOf(db, 'product_files', productIds).execute() as Promise<ProductFileRow[]>);
}

export async function insertImages(db: Executor, rows: ProductImageRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('product_images').values(rows.map((r) => ({ ...r, size: Number(r.size) }))).execute();
}

export async function insertFiles(db: Executor, rows: ProductFileRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('product_files').values(rows.map((r) => ({ ...r, size: Number(r.size) }))).execute();
}

/** A file by its product's id and its own, in an environment of that kind (download links carry no key). */
export async function findDownloadableFile(db: Executor, environmentKind: 'sandbox' | 'production', productId: string, fileId: string) {
  return db
    .selectFrom('product_files as f')
    .innerJoin('environments as e', 'e.id', 'f.environment_id')
    .select(['f.name', 'f.storage_key', 'f.enabled'])
    .where('f.id', '=', fileId)
    .where('f.product_id', '=', productId)
    .where('e.kind', '=', environmentKind)
    .executeTakeFirst();
}

export async function findImage(db: Executor, productId: string, imageId: string): Promise<ProductImageRow | undefined> {
  return db
    .selectFrom('product_images')
    .selectAll()
    .where('product_id', '=', productId)
    .where('id', '=', imageId)
    .executeTakeFirst();
}

export async function clearThumbnail(db: Executor, productId: string): Promise<void> {
  await db.updateTable('product_images').set({ thumbnail: false }).where('product_id', '=', productId).execute();
}

export async function updateImage(
  db: Executor,
  imageId: string,
  changes: Partial<Pick<ProductImageRow, 'name' | 'ordering' | 'thumbnail' | 'enabled'>>,
): Promise<ProductImageRow> {
  return db.updateTable('product_images').set(changes).where('id', '=', imageId).returningAll().executeTakeFirstOrThrow();
}

/** Deletes a product's image record; undefined when the product has no such image. */
export async function deleteImage(db: Executor, productId: string, imageId: string): Promise<ProductImageRow | undefined> {
  return db.deleteFrom('product_images').where('product_id', '=', productId).where('id', '=', imageId).returningAll().executeTakeFirst();
}

/** A product's file, changed (`changes`) or as it is; undefined when the product has no such file. */
export async function updateFile(
  db: Executor,
  productId: string,
  fileId: string,
  changes: Partial<Pick<ProductFileRow, 'name' | 'ordering' | 'enabled'>>,
): Promise<ProductFileRow | undefined> {
  const where = { product: productId, file: fileId };
  if (Object.keys(changes).length === 0) {
    return db.selectFrom('product_files').selectAll().where('product_id', '=', where.product).where('id', '=', where.file).executeTakeFirst();
  }
  return db.updateTable('product_files').set(changes).where('product_id', '=', where.product).where('id', '=', where.file).returningAll().executeTakeFirst();
}

/** Deletes a product's file record; undefined when the product has no such file. */
export async function deleteFile(db: Executor, productId: string, fileId: string): Promise<ProductFileRow | undefined> {
  return db.deleteFrom('product_files').where('product_id', '=', productId).where('id', '=', fileId).returningAll().executeTakeFirst();
}

/** The image a product shows first: its thumbnail, else its first; turned-off images never. */
export async function mainImage(db: Executor, productId: string): Promise<Pick<ProductImageRow, 'name' | 'storage_key'> | undefined> {
  return db
    .selectFrom('product_images')
    .select(['name', 'storage_key'])
    .where('product_id', '=', productId)
    .where('enabled', '=', true)
    .orderBy('thumbnail', 'desc')
    .orderBy('ordering')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}

export async function publishedPlanIdentifiers(db: Executor, productId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('plans')
    .select('identifier')
    .where('product_id', '=', productId)
    .where('archived_at', 'is', null)
    .where('published_version', 'is not', null)
    .orderBy('seq')
    .execute();
  return rows.map((r) => r.identifier);
}

export async function settingsOf(db: Executor, product: ProductRow, at: Date): Promise<ProductSettingsRow> {
  await db
    .insertInto('product_settings')
    .values({ product_id: product.id, environment_id: product.environment_id, modified_at: at })
    .onConflict((oc) => oc.column('product_id').doNothing())
    .execute();
  return db.selectFrom('product_settings').selectAll().where('product_id', '=', product.id).executeTakeFirstOrThrow();
}

export async function updateSettings(
  db: Executor,
  productId: string,
  changes: Partial<Pick<ProductSettingsRow, 'vpn' | 'tor' | 'proxy' | 'currency' | 'product_url'>> & { modified_at: Date },
): Promise<ProductSettingsRow> {
  return db
    .updateTable('product_settings')
    .set(changes)
    .where('product_id', '=', productId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The currency set in the product's settings, without creating the settings row. */
export async function settingsCurrency(db: Executor, productId: string): Promise<string | null> {
  const row = await db.selectFrom('product_settings').select('currency').where('product_id', '=', productId).executeTakeFirst();
  return row?.currency ?? null;
}
