import type { EntityManager } from '@mikro-orm/postgresql';
import { SubscriptionEntity, type SubscriptionRow } from './entities/subscription.entity.js';

/** A stored property of a subscription row (its keys without MikroORM's symbol). */
export type SubscriptionProperty = Extract<keyof SubscriptionRow, string>;

/**
 * Writes `properties` of many subscription rows in one statement, in the caller's transaction:
 * the rows travel as one JSON array that Postgres turns into records of the table's own row type
 * (`jsonb_populate_recordset`), so every value is converted by the column's type exactly as a
 * parameter would be (timestamps as ISO text, numerics as text, JSON columns as JSON).
 */
export async function updateSubscriptionRows(
  em: EntityManager,
  rows: readonly SubscriptionRow[],
  properties: readonly SubscriptionProperty[],
): Promise<void> {
  if (rows.length === 0 || properties.length === 0) return;
  const meta = em.getMetadata().get(SubscriptionEntity);
  const columnOf = (property: SubscriptionProperty): string => {
    const name = meta.properties[property]?.fieldNames[0];
    if (!name) throw new Error(`subscription has no column for ${property}`);
    return name;
  };
  const columns = properties.map((property) => [property, columnOf(property)] as const);
  const id = columnOf('id');
  const set = columns.map(([, name]) => `"${name}" = v."${name}"`).join(', ');
  const values = rows.map((row) => {
    const value: Record<string, unknown> = { [id]: row.id };
    for (const [property, name] of columns) value[name] = row[property] ?? null;
    return value;
  });
  // The table's unqualified name resolves in the service schema (search_path of every pooled connection).
  await em.execute(
    `update "${meta.tableName}" as s set ${set}
       from jsonb_populate_recordset(null::"${meta.tableName}", ?::jsonb) as v where s."${id}" = v."${id}"`,
    [JSON.stringify(values)],
    'run',
  );
}
