export { Billow, DEFAULT_TIMEOUT_MS, type BillowOptions } from './client.js';
export { Customers, type CreateOptions, type CustomerListParams } from './customers.js';
export { BillowConnectionError, BillowError } from './errors.js';
export type { Fetch } from './http.js';
export type { BillingAddress, Customer, CustomerCreate, CustomerUpdate, ErrorBody, Page } from '@billow/contract';
