/** The book a series or a drill-down reads (decisions 0106, 0107): a plan's, a product's, or the whole business's. */
import { planAndProduct } from './errors.js';
import type { BookSegment } from './repo.js';

export function bookOfRequest(request: { plan?: string; product?: string }): BookSegment {
  if (request.plan !== undefined && request.product !== undefined) throw planAndProduct();
  if (request.plan !== undefined) return { dimension: 'plan', segment: request.plan };
  if (request.product !== undefined) return { dimension: 'product', segment: request.product };
  return { dimension: 'all', segment: '' };
}
