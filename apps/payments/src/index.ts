export { paymentsEntities } from './db/entities/index.js';
export { migrations as paymentsMigrations } from './db/migrations/index.js';
export { NOOP_TEST_CARDS, NOOP_TOKENS } from './gateways/noop-gateway.js';
export type { PaymentsConfig } from './payments-config.js';
export { createPaymentsModule, type PaymentsModuleOptions, paymentsModule } from './service.js';
