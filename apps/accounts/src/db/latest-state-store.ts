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
