import { executeBound } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SubscriptionEntity, type SubscriptionRow } from './entities/subscription.entity.js';

/** A stored property of a subscription row (its keys without MikroORM's symbol). */
export type SubscriptionProperty = Extract<keyof SubscriptionRow, string>;

/**
 * Writes `properties` of many subscription rows in one statement, in the caller's transaction:
 * the rows travel as one JSON array that Postgres turns into records of the table's own row type
 * (`jsonb_populate_recordset`), so every value is converted by the column's type exactly as a
 * parameter would be (timestamps as ISO text, numerics as text, JSON columns as JSON).
 * Every row written is a change of it: its version grows by one (the caller counted it on the
 * row object, see subscription-version.ts, so its events carry the same number).
 */
export async function updateSubscriptionRows(
  em: EntityManager,
  rows: readonly SubscriptionRow[],
  properties: readonly SubscriptionProperty[],
): Promise<void> {
  if (rows.length === 0) return;
  const meta = em.getMetadata().get(SubscriptionEntity);
  const columnOf = (property: SubscriptionProperty): string => {
    const name = meta.properties[property]?.fieldNames[0];
    if (!name) throw new Error(`subscription has no column for ${property}`);
    return name;
  };
  const columns = properties
    .filter((property) => property !== 'version')
    .map((property) => [property, columnOf(property)] as const);
  const id = columnOf('id');
  const version = columnOf('version');
  const set = [...columns.map(([, name]) => `"${name}" = v."${name}"`), `"${version}" = s."${version}" + 1`].join(', ');
  const values = rows.map((row) => {
    const value: Record<string, unknown> = { [id]: row.id };
    for (const [property, name] of columns) value[name] = row[property] ?? null;
    return value;
  });
  // The table's unqualified name resolves in the service schema (search_path of every pooled connection).
  // Bound (executeBound): the document is sent as it is, not escaped into the text and lexed back.
  // Not prepared: the join with the subscriptions is planned by the table's size (a hash of a scan
  // on a small table, lookups on a large one), which a connection's generic plan would keep as
  // the table grows.
  await executeBound(
    em,
    `update "${meta.tableName}" as s set ${set}
       from jsonb_populate_recordset(null::"${meta.tableName}", ?::jsonb) as v where s."${id}" = v."${id}"`,
    [JSON.stringify(values)],
  );
}
