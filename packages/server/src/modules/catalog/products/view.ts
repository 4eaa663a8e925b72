import type { Product, ProductImage } from '@billow/contract';
import type { ProductImageRow, ProductRow } from './repo.js';

/** Public URLs of stored images (the media service provides it). */
export interface ImageUrls {
  publicUrl(baseUrl: string, key: string): string;
}

export function toProductImage(row: ProductImageRow, urls: ImageUrls, baseUrl: string): ProductImage {
  return {
    id: row.id,
    name: row.name,
    image: urls.publicUrl(baseUrl, row.storage_key),
    ordering: row.ordering,
    thumbnail: row.thumbnail,
    enabled: row.enabled,
  };
}

/** The wire product; `images` may hold other products' images too: only the product's own are shown. */
export function toProduct(row: ProductRow, images: ProductImageRow[], urls: ImageUrls, baseUrl: string): Product {
  return {
    id: row.id,
    identifier: row.identifier,
    name: row.name,
    description: row.description,
    taxCode: row.tax_code,
    createdBy: null,
    isArchived: row.archived_at !== null,
    images: images.filter((i) => i.product_id === row.id).map((i) => toProductImage(i, urls, baseUrl)),
    createdOn: row.created_at.toISOString(),
    modifiedOn: row.modified_at.toISOString(),
  };
}
