import { applyWrite, type Write, type WriteMode } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import { codeTaken } from '../db/account-store.js';
import type { AccountFields } from '../domain/account.js';
import { ACCOUNT_SHAPE } from '../domain/account.js';
import type { ChangeScope } from './change-transaction.js';
import { resolveReseller } from './resolve-reseller.js';

export type AccountWriteRequest = Write<AccountFields> & { reseller_code?: string };

/** Validates a create/PUT/PATCH against the current account and resolves references. */
export async function prepareAccountFields(
  scope: ChangeScope,
  current: (AccountFields & { id: string }) | null,
  write: AccountWriteRequest,
  mode: WriteMode,
): Promise<AccountFields> {
  const applied = applyWrite(ACCOUNT_SHAPE, current, write, mode);
  if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
  const fields = applied.fields as AccountFields;
  const reseller = await resolveReseller(
    scope.em,
    scope.organizationId,
    current?.id ?? null,
    write.present.has('reseller') ? fields.reseller : undefined,
    write.reseller_code,
  );
  if (reseller !== undefined) fields.reseller = reseller;
  if (await codeTaken(scope.em, scope.organizationId, fields.code, current?.id)) {
    throw AppError.invalidField('code', 'account with this code already exists.');
  }
  return fields;
}
