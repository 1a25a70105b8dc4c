export * from './charges.js';
export * from './contracts.js';
export * from './lifecycle/index.js';
export * from './local-time.js';
export * from './mrr.js';
export * from './periods.js';
export * from './pricing.js';
export * from './proration.js';
