import { executeBound } from '@billing/db';
import {
  type EntityData,
  type EntityKey,
  type EntityManager,
  type EntityName,
  type FilterQuery,
  LockMode,
  type RequiredEntityData,
} from '@mikro-orm/postgresql';

/** What storing one event's state did to its read-model row (logged by the consumers). */
export type RecordOutcome = 'inserted' | 'updated' | 'older' | 'other-organization';

/** A read-model row: one per entity of another service, keyed by its id and owned by an organization. */
interface OwnedRow {
  id: string;
  organization_id: string;
}

/** Which row a state belongs to. */
export interface RowOwner {
  organizationId: string;
  id: string;
}

/**
 * Stores the latest state of a row fed by another service's events: `fields` (every column but
 * the key) replace the stored ones only when the domain's `supersedes(stored)` says this state is
 * newer. The insert-or-nothing comes first so that two replicas (or the two delivery paths)
 * handling the same new row cannot both insert; the row lock then serializes the comparison with
 * any concurrent update.
 */
export async function recordLatestState<Row extends OwnedRow>(
  em: EntityManager,
  entity: EntityName<Row>,
  owner: RowOwner,
  fields: Omit<RequiredEntityData<Row>, keyof OwnedRow>,
  supersedes: (stored: Row) => boolean,
): Promise<RecordOutcome> {
  // The casts only help TypeScript, which cannot resolve MikroORM's mapped types for a generic Row;
  // the callers' fields are checked against their entity where they call this.
  const inserted = await em
    .createQueryBuilder(entity)
    .insert({ id: owner.id, organization_id: owner.organizationId, ...fields } as RequiredEntityData<Row>)
    .onConflict('id' as EntityKey<Row>)
    .ignore()
    .execute('run');
  if (inserted.affectedRows > 0) return 'inserted';
  const stored = await em.findOne(entity, { organization_id: owner.organizationId, id: owner.id } as FilterQuery<Row>, {
    lockMode: LockMode.PESSIMISTIC_WRITE,
  });
  // The id exists, but not in this organization: never let one tenant overwrite another's row.
  if (!stored) return 'other-organization';
  const row = stored as Row;
  if (!supersedes(row)) return 'older';
  em.assign<OwnedRow>(row, fields as EntityData<OwnedRow>);
  await em.flush();
  return 'updated';
}

/** One state for recordLatestStates: its row, its fields, and whether it replaces a stored state. */
export interface LatestState<Row extends OwnedRow> {
  owner: RowOwner;
  fields: Omit<RequiredEntityData<Row>, keyof OwnedRow>;
  /** The domain's rule, given the row's state before this one (stored, or of an earlier state in the list). */
  supersedes: (stored: Row) => boolean;
}

/**
 * recordLatestState for a list of states (a batch of events), with the outcomes and the rows that
 * storing them one after the other in list order gives, in three plain statements instead of two
 * to four per state (and without the ORM's entities, whose hydration and change sets cost more
 * than the statements): the first state of each row inserted-or-nothing, then the rows that
 * existed (or get a later state of the list) locked and read, then the rows whose state changed
 * written by one update. Rows are inserted and locked in id order, so two batches touching the
 * same rows wait for each other instead of deadlocking. A row of another organization is never
 * changed: the states naming it are 'other-organization', as one by one. The caller's
 * EntityManager is not told of these rows (the read-model handlers load none of them).
 */
export async function recordLatestStates<Row extends OwnedRow>(
  em: EntityManager,
  entity: EntityName<Row>,
  states: readonly LatestState<Row>[],
): Promise<RecordOutcome[]> {
  if (states.length === 0) return [];
  const meta = em.getMetadata().get(entity);
  const table = `"${meta.tableName}"`;
  const columnOf = (property: string): string => {
    const name = meta.properties[property as keyof typeof meta.properties]?.fieldNames[0];
    if (!name) throw new Error(`${meta.tableName} has no column for ${property}`);
    return name;
  };
  // Each state's key once (a batch is hundreds of states, each key wanted several times below).
  const keys = states.map((state) => state.owner.id.toLowerCase());
  const firstOf = new Map<string, LatestState<Row>>();
  states.forEach((state, index) => {
    if (!firstOf.has(keys[index]!)) firstOf.set(keys[index]!, state);
  });
  const firsts = [...firstOf.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, state]) => state);
  const properties = Object.keys(firsts[0]!.fields);
  const columns = ['id', 'organization_id', ...properties].map(columnOf);
  // The column names looked up once for the batch, not once per value.
  const [idColumn, organizationColumn, ...propertyColumns] = columns as [string, string, ...string[]];
  const recordOf = (state: LatestState<Row>): Record<string, unknown> => {
    const record: Record<string, unknown> = {
      [idColumn]: state.owner.id,
      [organizationColumn]: state.owner.organizationId,
    };
    const fields = state.fields as Record<string, unknown>;
    properties.forEach((property, index) => {
      record[propertyColumns[index]!] = jsonValue(fields[property]);
    });
    return record;
  };
  const list = columns.map((column) => `"${column}"`).join(', ');
  // The rows travel as one JSON array that Postgres turns into records of the table's row type, so
  // every value is converted by its column's type as a parameter would be. Unqualified names
  // resolve in the service schema (search_path of every connection).
  // Bound (executeBound), as the two statements below: the document is sent as it is, neither
  // escaped into the statement's text by the ORM nor lexed back by Postgres.
  const { rows: insertedIds } = await executeBound<{ id: string }>(
    em,
    `insert into ${table} (${list})
     select ${list} from jsonb_populate_recordset(null::${table}, ?::jsonb) order by "${idColumn}"
     on conflict ("${idColumn}") do nothing
     returning "${idColumn}" as id`,
    [JSON.stringify(firsts.map(recordOf))],
  );
  const inserted = new Set(insertedIds.map((row) => String(row.id).toLowerCase()));
  const statesPer = new Map<string, number>();
  for (const key of keys) statesPer.set(key, (statesPer.get(key) ?? 0) + 1);
  // The rows a state is compared with: those that existed, and new ones with a later state here.
  const compared = [...firstOf.keys()].filter((id) => !inserted.has(id) || (statesPer.get(id) ?? 0) > 1);
  const stored = new Map<string, Row>();
  if (compared.length > 0) {
    // Only rows of the batch's organizations: a row another organization owns, named by none of its
    // own events here, is neither read nor locked (its states are 'other-organization' as one by one).
    const organizations = [...new Set(states.map((state) => state.owner.organizationId))];
    const { rows } = await executeBound<Row>(
      em,
      `select * from ${table}
        where "${idColumn}" in (select value::uuid from jsonb_array_elements_text(?::jsonb))
          and "${organizationColumn}" in (select value::uuid from jsonb_array_elements_text(?::jsonb))
        order by "${idColumn}" for update`,
      [JSON.stringify(compared), JSON.stringify(organizations)],
    );
    for (const row of rows) stored.set(String(row.id).toLowerCase(), row);
  }
  const seen = new Set<string>();
  const written = new Map<string, LatestState<Row>>();
  const outcomes = states.map((state, index): RecordOutcome => {
    const id = keys[index]!;
    const first = !seen.has(id);
    seen.add(id);
    if (first && inserted.has(id)) return 'inserted';
    const row = stored.get(id);
    // The id exists, but not in this organization: never let one tenant overwrite another's row.
    if (!row || String(row.organization_id).toLowerCase() !== state.owner.organizationId.toLowerCase()) {
      return 'other-organization';
    }
    if (!state.supersedes(row)) return 'older';
    // The row now holds this state: the next state of the list is compared with it.
    Object.assign(row, state.fields);
    written.set(id, state);
    return 'updated';
  });
  if (written.size > 0) {
    const set = propertyColumns.map((column) => `"${column}" = v."${column}"`).join(', ');
    await executeBound(
      em,
      `update ${table} as t set ${set}
         from jsonb_populate_recordset(null::${table}, ?::jsonb) as v where t."${idColumn}" = v."${idColumn}"`,
      [JSON.stringify([...written.values()].map(recordOf))],
    );
  }
  return outcomes;
}

/** A value as jsonb_populate_recordset reads it for its column: bytes as bytea's hex text. */
function jsonValue(value: unknown): unknown {
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  return value ?? null;
}
