export { TestClock } from '@billing/clock';
export { type BuiltService, startBuiltService } from './built-service.js';
export {
  entriesRead,
  entriesReadBy,
  entriesReadInOrm,
  entriesReadRolledBack,
  type TransactionalOrm,
  type TransactionQuery,
} from './entries-read.js';
export { type FakeCharge, startFakeStripe } from './fake-stripe.js';
export { keyedUuids } from './keyed-uuids.js';
export { type NatsServerHandle, startNatsServer } from './nats-server-process.js';
export {
  BIS_CUSTOMIZATION,
  BIS_PROFILE,
  bisViolations,
  EAS_CODES,
  parseUbl,
  REC20_UNIT_CODES,
  ublAll,
  ublText,
  VAT_CATEGORIES,
} from './peppol-bis-rules.js';
export { createTestSchema, type TestSchema, testDatabaseUrl } from './test-database.js';
export { testNatsUrl } from './test-nats.js';
export { uniqueName } from './unique-name.js';
export { type WaitForOptions, waitFor } from './wait-for.js';
