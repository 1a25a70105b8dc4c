import { AppError } from '@billing/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountEntity } from '../db/entities/account.entity.js';

/**
 * The reseller may be given by uuid (`reseller`) or by code (`reseller_code`); either must name
 * another account of the same organization. Returns the reseller's id (null for none).
 */
export async function resolveReseller(
  em: EntityManager,
  organizationId: string,
  selfId: string | null,
  reseller: string | null | undefined,
  resellerCode: string | undefined,
): Promise<string | null | undefined> {
  if (resellerCode !== undefined) {
    if (resellerCode === '') return null;
    const row = await em.findOne(
      AccountEntity,
      { organization_id: organizationId, code: resellerCode },
      { fields: ['id'] },
    );
    if (!row) throw AppError.invalidField('reseller_code', `Account with code "${resellerCode}" does not exist.`);
    if (row.id === selfId) throw AppError.invalidField('reseller_code', 'An account cannot be its own reseller.');
    return row.id;
  }
  if (reseller === undefined || reseller === null) return reseller;
  const row = await em.findOne(AccountEntity, { organization_id: organizationId, id: reseller }, { fields: ['id'] });
  if (!row) throw AppError.invalidField('reseller', `Invalid pk "${reseller}" - object does not exist.`);
  if (row.id === selfId) throw AppError.invalidField('reseller', 'An account cannot be its own reseller.');
  return row.id;
}
