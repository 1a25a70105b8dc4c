export { afterCommit } from './after-commit.js';
export { AuditLogEntry, type IAuditLogEntry } from './audit/audit-log-entry.entity.js';
export { type AuditEntryInput, auditEntryRow, insertAuditEntries, recordAudit } from './audit/record-audit.js';
export {
  type BoundResult,
  executeBound,
  MAX_BIND_PARAMETERS,
  numberedPlaceholders,
  selectBound,
} from './bound-statement.js';
export { byteSlices } from './byte-slices.js';
export { ConstraintViolationError, isConstraintViolation } from './constraint-violation-error.js';
export { countAfterCommit } from './count-after-commit.js';
export { type InTransactionOptions, inTransaction } from './in-transaction.js';
export { CONFLICT_RETRY, mapDbError } from './map-db-error.js';
export { migrate } from './migrate.js';
export type { MigrationClass } from './migration-class.js';
export { type CreatedMigration, type CreateMigrationOptions, createMigration } from './migrations/create-migration.js';
export { type MigrationCliOptions, runMigrationCli } from './migrations/migration-cli.js';
export { MIGRATIONS_TABLE, type OpenOrmOptions, openOrm } from './open-orm.js';
export { type OpenPoolOptions, openPool } from './open-pool.js';
export { pgArray } from './pg-array.js';
export { plainRows } from './plain-rows.js';
export { readSnapshot } from './read-snapshot.js';
