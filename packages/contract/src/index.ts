export * from './common.js';
export * from './customers.js';
export * from './partner.js';
export * from './catalog.js';
export * from './media.js';
export * from './monetization.js';
