export { paymentsEntities } from './db/entities/index.js';
export { migrations as paymentsMigrations } from './db/migrations/index.js';
export type { Directory, Invoicing, OrganizationFacts } from './domain/directory.js';
export { gatewayFactory } from './gateways/gateway-factory.js';
export { NOOP_TEST_CARDS, NOOP_TOKENS } from './gateways/noop-gateway.js';
export type { PaymentsConfig } from './payments-config.js';
export { createPaymentsModule, type PaymentsModuleOptions, paymentsModule } from './service.js';
export { Charger } from './use-cases/charging/charger.js';
export type { PaymentsDeps } from './use-cases/deps.js';
