export { subscriptionsEntities } from './db/entities/index.js';
export { migrations as subscriptionsMigrations } from './db/migrations/index.js';
export { createSubscriptionsModule, type SubscriptionsModuleOptions, subscriptionsModule } from './service.js';
export { processAllDue } from './use-cases/subscriptions/process-due.js';
