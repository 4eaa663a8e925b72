import type { Product } from '@billow/contract';
import type { Executor } from '../../../db/transaction.js';
import * as repo from './repo.js';
import { toProduct, type ProductLinks } from './view.js';

/** Products as GET /catalog/products/{id}/ shows them (without its plans), by id, for resources that embed them. */
export async function productViews(db: Executor, environmentId: string, ids: string[], links: ProductLinks): Promise<Map<string, Product>> {
  const unique = [...new Set(ids)];
  const [rows, images, files] = await Promise.all([repo.productsById(db, environmentId, unique), repo.imagesOf(db, unique), repo.filesOf(db, unique)]);
  return new Map(rows.map((row) => [row.id, toProduct(row, images, files, links)]));
}
