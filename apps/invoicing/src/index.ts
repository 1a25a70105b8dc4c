// For the invoice benchmark (bench/src/invoices.ts): the consumer's handler on the service's own schema.

export { loadMailConfig, type MailConfig } from '@billing/mail';
export { invoicingEntities } from './db/entities/index.js';
export { migrations as invoicingMigrations } from './db/migrations/index.js';
export type { Buyer, Directory, Seller } from './domain/directory.js';
export { invoiceChargeCreated } from './events/charge-consumer.js';
export { createInvoicingModule, type InvoicingModuleOptions, invoicingModule } from './service.js';
export type { InvoicingDeps } from './use-cases/deps.js';
