import type { Product, ProductFile, ProductImage } from '@billow/contract';
import type { ProductFileRow, ProductImageRow, ProductRow } from './repo.js';

/** Public URLs of stored images (the media service provides it). */
export interface ImageUrls {
  publicUrl(baseUrl: string, key: string): string;
}

/** Where a product's images and file links point: the server's root and the caller's API base. */
export interface ProductLinks {
  urls: ImageUrls;
  baseUrl: string;
  apiBase: string;
}

export function toProductImage(row: ProductImageRow, urls: ImageUrls, baseUrl: string): ProductImage {
  return {
    id: row.id,
    name: row.name,
    image: urls.publicUrl(baseUrl, row.storage_key),
    ordering: row.ordering,
    thumbnail: row.thumbnail,
    enabled: row.enabled,
    size: Number(row.size),
    contentType: row.content_type,
  };
}

export function productFileDownloadUrl(apiBase: string, productId: string, fileId: string): string {
  return `${apiBase}/catalog/products/${productId}/file/${fileId}/download/`;
}

export function toProductFile(row: ProductFileRow, apiBase: string): ProductFile {
  const downloadUrl = productFileDownloadUrl(apiBase, row.product_id, row.id);
  const { id, name, ordering, enabled } = row;
  return { id, name, file: downloadUrl, ordering, enabled, downloadUrl, size: Number(row.size), contentType: row.content_type };
}

/** The wire product; `images` and `files` may hold other products' too: only the product's own are shown. */
export function toProduct(row: ProductRow, images: ProductImageRow[], files: ProductFileRow[], links: ProductLinks): Product {
  return {
    id: row.id,
    identifier: row.identifier,
    name: row.name,
    description: row.description,
    taxCode: row.tax_code,
    createdBy: null,
    isArchived: row.archived_at !== null,
    images: images.filter((i) => i.product_id === row.id).map((i) => toProductImage(i, links.urls, links.baseUrl)),
    files: files.filter((f) => f.product_id === row.id).map((f) => toProductFile(f, links.apiBase)),
    createdOn: row.created_at.toISOString(),
    modifiedOn: row.modified_at.toISOString(),
  };
}
