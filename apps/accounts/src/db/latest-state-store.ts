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
 * storing them one after the other in list order gives, in three statements instead of two to
 * four per state: the first state of each row inserted-or-nothing, then the rows that existed (or
 * get a later state of the list) locked and read, then the rows whose state changed written by one
 * flush. Rows are inserted and locked in id order, so two batches touching the same rows wait for
 * each other instead of deadlocking. A row of another organization is never changed: the states
 * naming it are 'other-organization', as one by one.
 */
export async function recordLatestStates<Row extends OwnedRow>(
  em: EntityManager,
  entity: EntityName<Row>,
  states: readonly LatestState<Row>[],
): Promise<RecordOutcome[]> {
  if (states.length === 0) return [];
  const keyOf = (state: LatestState<Row>) => state.owner.id.toLowerCase();
  const firstOf = new Map<string, LatestState<Row>>();
  for (const state of states) if (!firstOf.has(keyOf(state))) firstOf.set(keyOf(state), state);
  const firsts = [...firstOf.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, state]) => state);
  const insertedRows = await em
    .createQueryBuilder(entity)
    .insert(
      firsts.map(
        (state) =>
          ({
            id: state.owner.id,
            organization_id: state.owner.organizationId,
            ...state.fields,
          }) as RequiredEntityData<Row>,
      ),
    )
    .onConflict('id' as EntityKey<Row>)
    .ignore()
    .returning('id' as never)
    .execute('run');
  const insertedIds = (insertedRows.rows ?? []) as Array<{ id: string }>;
  const inserted = new Set(insertedIds.map((row) => String(row.id).toLowerCase()));
  const statesPer = new Map<string, number>();
  for (const state of states) statesPer.set(keyOf(state), (statesPer.get(keyOf(state)) ?? 0) + 1);
  // The rows a state is compared with: those that existed, and new ones with a later state here.
  const compared = [...firstOf.keys()].filter((id) => !inserted.has(id) || (statesPer.get(id) ?? 0) > 1);
  const stored = new Map<string, Row>();
  if (compared.length > 0) {
    // Only rows of the batch's organizations: a row another organization owns, named by none of its
    // own events here, is neither read nor locked (its states are 'other-organization' as one by one).
    const organizations = [...new Set(states.map((state) => state.owner.organizationId))];
    const where = { id: { $in: compared }, organization_id: { $in: organizations } };
    const rows = await em.find(entity, where as unknown as FilterQuery<Row>, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
      orderBy: { id: 'asc' } as never,
      // The caller's EntityManager may hold an older copy of a row: compare with the locked one.
      refresh: true,
    });
    for (const row of rows as Row[]) stored.set(row.id.toLowerCase(), row);
  }
  const seen = new Set<string>();
  const outcomes = states.map((state): RecordOutcome => {
    const id = keyOf(state);
    const first = !seen.has(id);
    seen.add(id);
    if (first && inserted.has(id)) return 'inserted';
    const row = stored.get(id);
    // The id exists, but not in this organization: never let one tenant overwrite another's row.
    if (!row || row.organization_id.toLowerCase() !== state.owner.organizationId.toLowerCase()) {
      return 'other-organization';
    }
    if (!state.supersedes(row)) return 'older';
    // The managed row now holds this state: the next state of the list is compared with it.
    em.assign<OwnedRow>(row, state.fields as EntityData<OwnedRow>);
    return 'updated';
  });
  await em.flush();
  return outcomes;
}
