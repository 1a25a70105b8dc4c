import { executeBound } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChargeRow } from './entities/charge.entity.js';

/** The charge table's columns, in the entity's order (db/entities/charge.entity.ts). */
const COLUMNS = [
  'id',
  'organization_id',
  'subscription_id',
  'account_id',
  'kind',
  'period_start',
  'change_key',
  'due_at',
  'currency',
  'amount',
  'lines',
  'credit_all_invoices',
  'awaiting_invoice',
  'created_at',
] as const satisfies ReadonlyArray<keyof ChargeRow>;

/**
 * Inserts many charge rows in one statement, in the caller's transaction: the rows travel as one
 * JSON array that Postgres turns into records of the table's own row type
 * (`jsonb_populate_recordset`), so each value is converted by its column's type as a parameter
 * would be (timestamps as ISO text, the amount as exact text, lines as JSON). The same rows as
 * em.insertMany, without its per-row parameter formatting (a scheduler batch's 200 charges made
 * 2,800 parameters). The unique key (charge_once_idx) still refuses a second charge for a period.
 */
export async function insertChargeRows(em: EntityManager, charges: readonly ChargeRow[]): Promise<void> {
  if (charges.length === 0) return;
  const list = COLUMNS.map((column) => `"${column}"`).join(', ');
  // The table's unqualified name resolves in the service schema (search_path of every pooled connection).
  // Bound (executeBound): the document is sent as it is, not escaped into the text and lexed back.
  await executeBound(
    em,
    `insert into "charge" (${list}) select ${list} from jsonb_populate_recordset(null::"charge", ?::jsonb)`,
    [JSON.stringify(charges.map((charge) => Object.fromEntries(COLUMNS.map((column) => [column, charge[column]]))))],
    { prepared: true },
  );
}
