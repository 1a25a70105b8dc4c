import type { CurrencyCode, ExchangeRate } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrganizationMoney } from '../domain/base-currency.js';
import { OrganizationMoneyEntity } from './entities/organization-money.entity.js';

/** organization.created / .updated: the organization's settings as the event states them. */
export async function saveOrganizationMoney(
  em: EntityManager,
  organization: { id: string; base_currency: string; time_zone: string; exchange_rates: ExchangeRate[] },
): Promise<void> {
  await em.upsert(OrganizationMoneyEntity, organization);
}

/** The money settings of these organizations, by id (those not heard of yet are missing). */
export async function loadOrganizationMoney(
  em: EntityManager,
  organizationIds: Iterable<string>,
): Promise<Map<string, OrganizationMoney>> {
  const ids = [...new Set(organizationIds)];
  if (ids.length === 0) return new Map();
  const rows = await em.find(OrganizationMoneyEntity, { id: { $in: ids } });
  return new Map(
    rows.map((row) => [
      row.id,
      {
        base_currency: row.base_currency as CurrencyCode,
        time_zone: row.time_zone,
        exchange_rates: row.exchange_rates,
      },
    ]),
  );
}
