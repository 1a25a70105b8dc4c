import { AppError } from '@billing/errors';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { AccountView } from '../domain/account-view.js';
import { loadAccountViews } from './account-views.js';
import { AccountEntity, type AccountRow } from './entities/account.entity.js';

/** The organization's account with that code, or 404 (also for another organization's code). */
export async function requireAccountByCode(
  em: EntityManager,
  organizationId: string,
  code: string,
  /** lock: FOR UPDATE until the caller's transaction ends (a delete). */
  options: { lock?: boolean } = {},
): Promise<AccountRow> {
  const row = await em.findOne(
    AccountEntity,
    { organization_id: organizationId, code },
    options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!row) throw AppError.notFound();
  return row;
}

export async function findAccountById(
  em: EntityManager,
  organizationId: string,
  id: string,
): Promise<AccountRow | null> {
  return em.findOne(AccountEntity, { organization_id: organizationId, id });
}

export async function accountView(em: EntityManager, organizationId: string, row: AccountRow): Promise<AccountView> {
  const [view] = await loadAccountViews(em, organizationId, [row]);
  return view!;
}

export async function codeTaken(
  em: EntityManager,
  organizationId: string,
  code: string,
  exceptId?: string,
): Promise<boolean> {
  const existing = await em.findOne(AccountEntity, { organization_id: organizationId, code }, { fields: ['id'] });
  return existing !== null && existing.id !== exceptId;
}
