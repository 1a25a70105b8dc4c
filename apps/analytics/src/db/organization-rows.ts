import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrganizationRow } from './entities/read-models.entity.js';
import { placeholders } from './sql-rows.js';

/**
 * The organizations' rows (those known), read with plain SQL: a consumer's batch only reads its
 * settings, so they are not loaded as entities (nothing for each later flush to compare).
 */
export async function organizationRows(
  em: EntityManager,
  organizationIds: readonly string[],
): Promise<OrganizationRow[]> {
  if (organizationIds.length === 0) return [];
  return em.execute<OrganizationRow[]>(
    `select id, base_currency, time_zone, exchange_rates from organization where id in (${placeholders(organizationIds.length)})`,
    [...organizationIds],
  );
}
