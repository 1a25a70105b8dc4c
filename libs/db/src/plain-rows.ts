import type { EntityManager, EntityName } from '@mikro-orm/postgresql';

/**
 * The rows a raw statement read (`select t.* from …`) as the entity's data, the values the ORM
 * would give its properties (columns mapped to properties, dates parsed, custom types such as
 * bigints and JSON converted), as plain objects: no managed entity is made, merged into the
 * identity map or given a change-set snapshot. For read paths that only read the rows: `em.map`
 * of each row did all of that and was 15 % of the accounts service's CPU in a billing run
 * (invoicing's buyers, hundreds of accounts a batch).
 */
export function plainRows<Row extends object>(
  em: EntityManager,
  entity: EntityName<Row>,
  rows: ReadonlyArray<Record<string, unknown>>,
): Row[] {
  const meta = em.getMetadata().get(entity);
  const driver = em.getDriver();
  const platform = em.getPlatform();
  const converted = meta.props.filter((prop) => prop.customType !== undefined && prop.persist !== false);
  return rows.map((row) => {
    const data = driver.mapResult(row as never, meta) as Record<string, unknown>;
    for (const prop of converted) {
      if (prop.name in data && data[prop.name] !== null && data[prop.name] !== undefined)
        data[prop.name] = prop.customType!.convertToJSValue(data[prop.name], platform);
    }
    return data as Row;
  });
}
