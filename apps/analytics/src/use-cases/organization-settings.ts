import { AppError, StatusCode } from '@billing/errors';
import type { CurrencyCode, Decimal } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrganizationEntity, type OrganizationRow } from '../db/entities/read-models.entity.js';
import { organizationRows } from '../db/organization-rows.js';
import { localDay, rateOn } from '../domain/exchange-rates.js';

/** An organization's MRR settings: base currency, time zone and the rate of a currency on a moment. */
export interface OrganizationSettings {
  row: OrganizationRow;
  base: CurrencyCode;
  rateAt(currency: string): (moment: Date) => Decimal | null;
}

const settingsOf = (row: OrganizationRow): OrganizationSettings => ({
  row,
  base: row.base_currency as CurrencyCode,
  rateAt: (currency) => (moment) =>
    rateOn(row.exchange_rates, currency, row.base_currency, localDay(moment, row.time_zone)),
});

/**
 * For reads: an organization whose organization.created has not reached analytics yet has no
 * events here either, so it reads as empty, its amounts written as the platform's default base
 * currency (DKK) writes them.
 */
export async function readSettings(em: EntityManager, organizationId: string): Promise<OrganizationSettings> {
  const row = await em.findOne(OrganizationEntity, { id: organizationId });
  return settingsOf(row ?? { id: organizationId, base_currency: 'DKK', time_zone: 'UTC', exchange_rates: [] });
}

/**
 * The organization as accounts' events told it. Until its organization.created has arrived (another
 * stream than the event being handled) the event is retried: UNAVAILABLE is transient to consumers.
 */
export async function organizationSettings(em: EntityManager, organizationId: string): Promise<OrganizationSettings> {
  const row = await em.findOne(OrganizationEntity, { id: organizationId });
  if (!row) throw notKnownYet(organizationId);
  return settingsOf(row);
}

const notKnownYet = (organizationId: string) =>
  new AppError({
    code: StatusCode.UNAVAILABLE,
    reason: 'ORGANIZATION_NOT_KNOWN_YET',
    message: `Organization ${organizationId} is not known to analytics yet.`,
  });

/** organizationSettings of several organizations, read in one statement (the first one not known yet fails). */
export async function organizationsSettings(
  em: EntityManager,
  organizationIds: readonly string[],
): Promise<Map<string, OrganizationSettings>> {
  const wanted = [...new Set(organizationIds)];
  const rows = await organizationRows(em, wanted);
  const settings = new Map(rows.map((row) => [row.id, settingsOf(row)]));
  const missing = wanted.find((id) => !settings.has(id));
  if (missing) throw notKnownYet(missing);
  return settings;
}
