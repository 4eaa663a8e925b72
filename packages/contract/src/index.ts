export * from './common.js';
export * from './customers.js';
export * from './partner.js';
