export * from './charge-records.js';
export * from './engine.js';
export * from './figures.js';
export * from './state.js';
