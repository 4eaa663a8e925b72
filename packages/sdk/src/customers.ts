import type { Customer, CustomerCreate, CustomerUpdate, Page } from '@billow/contract';
import { type HttpOptions, segment, send } from './http.js';

export interface CustomerListParams {
  /** Page number, from 1. */
  page?: number;
  /** Results per page (Billow's default is 10, its maximum 100). */
  pageSize?: number;
  /** Matches name, email and customerId, anywhere and in any case. */
  search?: string;
  /** Billow's list extension: the field to sort by (ties go to the newest); without it, newest first. */
  sort?: 'createdOn' | 'name' | 'email' | 'customerId';
  /** With `sort`: by default desc for createdOn, asc for the others. */
  order?: 'asc' | 'desc';
}

export interface CreateOptions {
  /** Sent as `Idempotency-Key`: repeating a create with the same key and body returns the first customer. */
  idempotencyKey?: string;
}

function itemPath(customerId: string): string {
  // Even encoded, these collapse into another path (the list) once the URL is normalised.
  if (customerId === '' || customerId === '.' || customerId === '..') {
    throw new TypeError(`customerId "${customerId}" can't be addressed in a URL`);
  }
  return `/customers/${segment(customerId)}/`;
}

/** Customers are addressed by the seller's own `customerId`. */
export class Customers {
  constructor(private readonly http: HttpOptions) {}

  async create(input: CustomerCreate, options: CreateOptions = {}): Promise<Customer> {
    const headers = options.idempotencyKey === undefined ? undefined : { 'idempotency-key': options.idempotencyKey };
    return send(this.http, { method: 'POST', path: '/customers/', body: input, headers });
  }

  async retrieve(customerId: string): Promise<Customer> {
    return send(this.http, { method: 'GET', path: itemPath(customerId) });
  }

  /** Fields left out are kept; `metadata` and `billingAddress` replace the stored value, and null clears them. */
  async update(customerId: string, changes: CustomerUpdate): Promise<Customer> {
    return send(this.http, { method: 'PATCH', path: itemPath(customerId), body: changes });
  }

  /** Newest first, unless `sort` says otherwise. */
  async list(params: CustomerListParams = {}): Promise<Page<Customer>> {
    return send(this.http, {
      method: 'GET',
      path: '/customers/',
      query: { page: params.page, page_size: params.pageSize, search: params.search, sort: params.sort, order: params.order },
    });
  }

  /** A soft delete: the customer leaves the list and its customerId can never be used again. */
  async archive(customerId: string): Promise<void> {
    await send<undefined>(this.http, { method: 'DELETE', path: itemPath(customerId) });
  }
}
