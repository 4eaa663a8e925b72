import type { Product } from '@billow/contract';
import type { Executor } from '../../../db/transaction.js';
import { billowPublicUrl } from '../../media/keys.js';
import * as repo from './repo.js';
import { toProduct, type ProductLinks } from './view.js';

/** Products as GET /catalog/products/{id}/ shows them (without its plans), by id, for resources that embed them. */
export async function productViews(db: Executor, environmentId: string, ids: string[], links: ProductLinks): Promise<Map<string, Product>> {
  const unique = [...new Set(ids)];
  const [rows, images, files] = await Promise.all([repo.productsById(db, environmentId, unique), repo.imagesOf(db, unique), repo.filesOf(db, unique)]);
  return new Map(rows.map((row) => [row.id, toProduct(row, images, files, links)]));
}

/** A name that is only a picture's file name (`screen.png`) says nothing a buyer needs read aloud. */
const FILE_NAME = /\.(png|jpe?g|gif|webp|avif)$/i;

/**
 * The product's main image for Billow's own pages (decision 0095): its path on Billow
 * (`/media/public/…`, so a page's `img-src 'self'` allows it) and its alt text, the image's
 * name unless that is a bare file name (then none: the product's name is beside it).
 */
export async function productMainImage(db: Executor, productId: string): Promise<{ src: string; alt: string } | null> {
  const image = await repo.mainImage(db, productId);
  if (!image) return null;
  const name = image.name?.trim() ?? '';
  return { src: billowPublicUrl('', image.storage_key), alt: FILE_NAME.test(name) ? '' : name };
}
