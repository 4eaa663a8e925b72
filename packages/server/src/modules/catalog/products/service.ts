import type {
  Product,
  ProductCreate,
  ProductFile,
  ProductFileUpdate,
  ProductImage,
  ProductImageUpdate,
  ProductSettings,
  ProductSettingsUpdate,
  ProductUpdate,
  ProductWithPlans,
} from '@billow/contract';
import type { Clock } from '../../../lib/clock.js';
import { newId } from '../../../lib/crypto.js';
import { isCurrency } from '../../../lib/money.js';
import type { Db } from '../../../db/connect.js';
import { inTransaction, isUniqueViolation, type Tx } from '../../../db/transaction.js';
import type { PageRequest } from '../../../lib/pagination.js';
import { alreadyArchived, archivedParent, identifierTaken, invalid, productFileNotFound, productImageNotFound, productNotFound } from '../errors.js';
import { freeIdentifier } from '../identifiers.js';
import type { CatalogMedia, MediaScope, StoredObject } from '../media-port.js';
import { keptAnswer, type AnswerKeeper } from '../../../db/answer-keeper.js';
import * as repo from './repo.js';
import { toProduct, toProductFile, toProductImage } from './view.js';

export const MAX_PRODUCT_IMAGES = 10;
/** What a product image may be (decision 0095): pictures every browser shows, none that runs scripts (SVG), 10 MiB at most. */
export const PRODUCT_IMAGE_LIMITS = {
  types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'],
  maxBytes: 10 * 1024 * 1024,
  rule: 'a product image must be a PNG, JPEG, GIF, WebP or AVIF picture of at most 10 MB (10485760 bytes)',
} as const;

export interface ProductScope extends MediaScope {
  /** Root URL images are served from, e.g. https://billing.example.com */
  baseUrl: string;
  /** The caller's API base, environment prefix included: file links point under it. */
  apiBase: string;
}

/** The rows of a product's new uploads (images or files), ordered after the ones it has. */
function uploadRows(scope: ProductScope, product: repo.ProductRow, staged: StoredObject[], existing: { ordering: number }[], at: Date) {
  const firstOrdering = existing.reduce((max, u) => Math.max(max, u.ordering + 1), 0);
  return staged.map((object, index) => ({
    id: newId(),
    environment_id: scope.environmentId,
    product_id: product.id,
    name: object.fileName,
    storage_key: object.key,
    content_type: object.contentType,
    size: String(object.size),
    ordering: firstOrdering + index,
    enabled: true,
    created_at: at,
  }));
}

export class ProductService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly media: CatalogMedia,
  ) {}

  private async toProducts(db: Tx | Db, rows: repo.ProductRow[], scope: ProductScope): Promise<Product[]> {
    const ids = rows.map((r) => r.id);
    const [images, files] = [await repo.imagesOf(db, ids), await repo.filesOf(db, ids)];
    const links = { urls: this.media, baseUrl: scope.baseUrl, apiBase: scope.apiBase };
    return rows.map((row) => toProduct(row, images, files, links));
  }

  private async withPlans(db: Tx | Db, row: repo.ProductRow, scope: ProductScope): Promise<ProductWithPlans> {
    const [product] = await this.toProducts(db, [row], scope);
    return { ...product!, plans: await repo.publishedPlanIdentifiers(db, row.id) };
  }

  /** Copies uploads to permanent storage before the transaction; `attach` records them inside it. */
  private stageImages(scope: ProductScope, keys: string[] | undefined, productId: string): Promise<StoredObject[]> {
    if (!keys || keys.length === 0) return Promise.resolve([]);
    if (new Set(keys).size !== keys.length) throw invalid('imageKeys: the same key is listed twice');
    // Product images appear on public pricing pages, so they are stored publicly.
    return this.media.stage(scope, keys, `products/${productId}`, { visibility: 'public', accept: PRODUCT_IMAGE_LIMITS });
  }

  private async attachImages(tx: Tx, scope: ProductScope, product: repo.ProductRow, staged: StoredObject[]) {
    if (staged.length === 0) return;
    const existing = await repo.imagesOf(tx, [product.id]);
    if (existing.length + staged.length > MAX_PRODUCT_IMAGES) {
      throw invalid(
        `imageKeys: a product holds at most ${MAX_PRODUCT_IMAGES} images; it has ${existing.length} and ${staged.length} more were given`,
      );
    }
    await this.media.consume(tx, scope, staged);
    const hasThumbnail = existing.some((i) => i.thumbnail);
    const at = this.clock.now();
    await repo.insertImages(
      tx,
      uploadRows(scope, product, staged, existing, at).map((row, index) => ({ ...row, thumbnail: !hasThumbnail && index === 0 })),
    );
  }

  /** Downloadable files are private: they are served through signed links only. */
  private stageFiles(scope: ProductScope, keys: string[] | undefined, productId: string): Promise<StoredObject[]> {
    if (!keys || keys.length === 0) return Promise.resolve([]);
    if (new Set(keys).size !== keys.length) throw invalid('fileKeys: the same key is listed twice');
    return this.media.stage(scope, keys, `products/${productId}/files`);
  }

  private async attachFiles(tx: Tx, scope: ProductScope, product: repo.ProductRow, staged: StoredObject[]) {
    if (staged.length === 0) return;
    await this.media.consume(tx, scope, staged);
    await repo.insertFiles(tx, uploadRows(scope, product, staged, await repo.filesOf(tx, [product.id]), this.clock.now()));
  }

  /** Where GET .../file/{id}/download/ sends the caller: a short-lived link to the stored file. */
  async fileDownloadLocation(environment: 'sandbox' | 'production', baseUrl: string, productId: string, fileId: string): Promise<string> {
    const file = await repo.findDownloadableFile(this.db, environment, productId, fileId);
    if (!file || !file.enabled) throw productFileNotFound(productId, fileId);
    return this.media.downloadUrl(baseUrl, file.storage_key, file.name);
  }

  async create(scope: ProductScope, input: ProductCreate, keep?: AnswerKeeper): Promise<ProductWithPlans> {
    const id = newId();
    const staged = await this.stageImages(scope, input.imageKeys, id);
    try {
      return await inTransaction(this.db, async (tx) => {
        const identifier = input.identifier ?? (await freeIdentifier(tx, 'products', scope.environmentId, input.name));
        const now = this.clock.now();
        const row = await repo.insertProduct(tx, {
          id,
          environment_id: scope.environmentId,
          identifier,
          name: input.name.trim(),
          description: input.description ?? '',
          tax_code: input.taxCode,
          created_at: now,
          modified_at: now,
        });
        await this.attachImages(tx, scope, row, staged);
        return keptAnswer(keep, tx, await this.withPlans(tx, row, scope));
      });
    } catch (error) {
      await this.media.remove(staged.map((s) => s.key));
      if (isUniqueViolation(error, repo.PRODUCT_IDENTIFIER_CONSTRAINT)) {
        throw identifierTaken('product', input.identifier ?? input.name);
      }
      throw error;
    }
  }

  async get(scope: ProductScope, ref: string): Promise<ProductWithPlans> {
    const row = await repo.findProduct(this.db, scope.environmentId, ref);
    if (!row) throw productNotFound(ref);
    return this.withPlans(this.db, row, scope);
  }

  async list(scope: ProductScope, search: string | undefined, page: PageRequest) {
    const term = search?.trim() || undefined;
    const count = await repo.countProducts(this.db, scope.environmentId, term);
    const rows =
      page.offset >= count ? [] : await repo.listProducts(this.db, scope.environmentId, term, page.pageSize, page.offset);
    return { count, results: await this.toProducts(this.db, rows, scope) };
  }

  private async livingProduct(tx: Tx, scope: ProductScope, ref: string): Promise<repo.ProductRow> {
    const row = await repo.findProduct(tx, scope.environmentId, ref, { forUpdate: true });
    if (!row) throw productNotFound(ref);
    if (row.archived_at) throw archivedParent('product', ref);
    return row;
  }

  async update(scope: ProductScope, ref: string, input: ProductUpdate): Promise<ProductWithPlans> {
    const known = await repo.findProduct(this.db, scope.environmentId, ref);
    if (!known) throw productNotFound(ref);
    const staged = await this.stageImages(scope, input.imageKeys, known.id);
    const stagedFiles = await this.stageFiles(scope, input.fileKeys, known.id).catch(async (error: unknown) => {
      await this.media.remove(staged.map((s) => s.key));
      throw error;
    });
    try {
      return await inTransaction(this.db, async (tx) => {
        const row = await this.livingProduct(tx, scope, ref);
        const updated = await repo.updateProduct(tx, row.id, {
          ...(input.name !== undefined ? { name: input.name.trim() } : {}),
          ...(input.description !== undefined ? { description: input.description ?? '' } : {}),
          ...(input.taxCode !== undefined ? { tax_code: input.taxCode } : {}),
          modified_at: this.clock.now(),
        });
        await this.attachImages(tx, scope, updated, staged);
        await this.attachFiles(tx, scope, updated, stagedFiles);
        return this.withPlans(tx, updated, scope);
      });
    } catch (error) {
      await this.media.remove([...staged, ...stagedFiles].map((s) => s.key));
      throw error;
    }
  }

  async archive(scope: ProductScope, ref: string): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const row = await repo.findProduct(tx, scope.environmentId, ref, { forUpdate: true });
      if (!row) throw productNotFound(ref);
      if (row.archived_at) throw alreadyArchived('product', ref);
      const now = this.clock.now();
      await repo.updateProduct(tx, row.id, { archived_at: now, modified_at: now });
    });
  }

  private toSettings(row: repo.ProductSettingsRow): ProductSettings {
    return { vpn: row.vpn, tor: row.tor, proxy: row.proxy, currency: row.currency, productUrl: row.product_url };
  }

  async settings(scope: ProductScope, ref: string): Promise<ProductSettings> {
    return inTransaction(this.db, async (tx) => {
      const row = await repo.findProduct(tx, scope.environmentId, ref);
      if (!row) throw productNotFound(ref);
      return this.toSettings(await repo.settingsOf(tx, row, this.clock.now()));
    });
  }

  async updateSettings(scope: ProductScope, ref: string, input: ProductSettingsUpdate): Promise<ProductSettings> {
    let currency = input.currency;
    if (typeof currency === 'string') {
      currency = currency.trim().toUpperCase();
      if (!isCurrency(currency)) throw invalid(`currency: "${input.currency}" is not an ISO 4217 currency code`);
    }
    return inTransaction(this.db, async (tx) => {
      const row = await this.livingProduct(tx, scope, ref);
      const now = this.clock.now();
      await repo.settingsOf(tx, row, now);
      const updated = await repo.updateSettings(tx, row.id, {
        ...(input.vpn !== undefined ? { vpn: input.vpn } : {}),
        ...(input.tor !== undefined ? { tor: input.tor } : {}),
        ...(input.proxy !== undefined ? { proxy: input.proxy } : {}),
        ...(currency !== undefined ? { currency } : {}),
        ...(input.productUrl !== undefined ? { product_url: input.productUrl } : {}),
        modified_at: now,
      });
      return this.toSettings(updated);
    });
  }

  async updateImage(scope: ProductScope, ref: string, imageId: string, input: ProductImageUpdate): Promise<ProductImage> {
    return inTransaction(this.db, async (tx) => {
      const product = await this.livingProduct(tx, scope, ref);
      const image = await repo.findImage(tx, product.id, imageId);
      if (!image) throw productImageNotFound(ref, imageId);
      if (input.thumbnail === true) await repo.clearThumbnail(tx, product.id);
      const updated = await repo.updateImage(tx, image.id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.ordering !== undefined ? { ordering: input.ordering } : {}),
        ...(input.thumbnail !== undefined ? { thumbnail: input.thumbnail } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      });
      await repo.updateProduct(tx, product.id, { modified_at: this.clock.now() });
      return toProductImage(updated, this.media, scope.baseUrl);
    });
  }

  /** Deletes the record and, once that is committed, the stored file: for good. */
  deleteImage(scope: ProductScope, ref: string, imageId: string): Promise<void> {
    return this.deleteUpload(scope, ref, (tx, productId) => repo.deleteImage(tx, productId, imageId), () => productImageNotFound(ref, imageId));
  }

  /** An image's or a file's record, deleted with the product's modification time; its stored bytes after the commit. */
  private async deleteUpload(
    scope: ProductScope,
    ref: string,
    drop: (tx: Tx, productId: string) => Promise<{ storage_key: string } | undefined>,
    missing: () => Error,
  ): Promise<void> {
    const storageKey = await inTransaction(this.db, async (tx) => {
      const product = await repo.findProduct(tx, scope.environmentId, ref, { forUpdate: true });
      if (!product) throw productNotFound(ref);
      const row = await drop(tx, product.id);
      if (!row) throw missing();
      await repo.updateProduct(tx, product.id, { modified_at: this.clock.now() });
      return row.storage_key;
    });
    await this.media.remove([storageKey]);
  }

  /** Renames, reorders, turns on or off one of the product's downloadable files (a Billow extension). */
  async updateFile(scope: ProductScope, ref: string, fileId: string, input: ProductFileUpdate): Promise<ProductFile> {
    return inTransaction(this.db, async (tx) => {
      const product = await this.livingProduct(tx, scope, ref);
      const row = await repo.updateFile(tx, product.id, fileId, {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.ordering !== undefined ? { ordering: input.ordering } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      });
      if (!row) throw productFileNotFound(ref, fileId);
      await repo.updateProduct(tx, product.id, { modified_at: this.clock.now() });
      return toProductFile(row, scope.apiBase);
    });
  }

  /** Deletes the file's record and, once that is committed, its stored bytes: for good (a Billow extension). */
  deleteFile(scope: ProductScope, ref: string, fileId: string): Promise<void> {
    return this.deleteUpload(scope, ref, (tx, productId) => repo.deleteFile(tx, productId, fileId), () => productFileNotFound(ref, fileId));
  }
}
