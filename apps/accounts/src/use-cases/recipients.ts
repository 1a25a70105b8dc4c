import { randomUUID } from 'node:crypto';
import { applyWrite, type PageSpec, resolveOrdering, type Write } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import { accountView, findAccountById } from '../db/account-store.js';
import { selfServiceIsOn, toRecipientView } from '../db/account-views.js';
import { findAccountsByIds } from '../db/accounts-by-id.js';
import { RecipientEntity, type RecipientRow } from '../db/entities/recipient.entity.js';
import type { RecipientView } from '../domain/account-view.js';
import { RECIPIENT_SHAPE, type RecipientFields } from '../domain/recipient.js';
import { publishAccountEvent } from '../events/account-events.js';
import { type ChangeScope, requireOrganization, runChange } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

const RECIPIENT_ORDERING: Readonly<Record<string, string>> = {
  name: 'name',
  email: 'email',
  created_date: 'created_at',
};

async function requireRecipient(em: EntityManager, organizationId: string, uuid: string): Promise<RecipientRow> {
  const row = await em.findOne(RecipientEntity, { organization_id: organizationId, id: uuid });
  if (!row) throw AppError.notFound();
  return row;
}

async function requireRecipientAccount(scope: ChangeScope, accountId: string) {
  const account = await findAccountById(scope.em, scope.organizationId, accountId);
  if (!account) throw AppError.invalidField('account', `Invalid pk "${accountId}" - object does not exist.`);
  return account;
}

async function viewOf(em: EntityManager, organizationId: string, row: RecipientRow): Promise<RecipientView> {
  const [account, selfService] = await Promise.all([
    findAccountById(em, organizationId, row.account_id),
    selfServiceIsOn(em, organizationId),
  ]);
  return toRecipientView(row, account?.code ?? '', selfService);
}

/** A recipient belongs to its account's state, so its changes publish account.updated. */
async function publishAccountOf(scope: ChangeScope, accountId: string): Promise<void> {
  const account = await findAccountById(scope.em, scope.organizationId, accountId);
  if (!account) return;
  account.updated_at = scope.now;
  await scope.em.flush();
  publishAccountEvent(scope, 'account.updated', await accountView(scope.em, scope.organizationId, account));
}

export async function createRecipient(
  deps: AccountsDeps,
  context: RequestContext,
  write: Write<RecipientFields>,
): Promise<RecipientView> {
  return runChange(deps, context, async (scope) => {
    const applied = applyWrite(RECIPIENT_SHAPE, null, write, 'create');
    if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
    const fields = applied.fields as RecipientFields;
    const account = await requireRecipientAccount(scope, fields.account);
    const row = scope.em.create(RecipientEntity, {
      id: randomUUID(),
      organization_id: scope.organizationId,
      account_id: account.id,
      name: fields.name,
      email: fields.email,
      receive_invoice: fields.receive_invoice,
      receive_payment_confirmation: fields.receive_payment_confirmation,
      receive_payment_card_notifications: fields.receive_payment_card_notifications,
      receive_subscription_notifications: fields.receive_subscription_notifications,
      created_at: scope.now,
    });
    await scope.em.flush();
    scope.audit('recipient.create', 'recipient', row.id, { account: account.id });
    await publishAccountOf(scope, account.id);
    return toRecipientView(row, account.code, await selfServiceIsOn(scope.em, scope.organizationId));
  });
}

export async function updateRecipient(
  deps: AccountsDeps,
  context: RequestContext,
  uuid: string,
  write: Write<RecipientFields>,
  replace: boolean,
): Promise<RecipientView> {
  return runChange(deps, context, async (scope) => {
    const row = await requireRecipient(scope.em, scope.organizationId, uuid);
    const current: RecipientFields = { ...row, account: row.account_id };
    const applied = applyWrite(RECIPIENT_SHAPE, current, write, replace ? 'replace' : 'patch');
    if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
    const { account: accountId, ...fields } = applied.fields as RecipientFields;
    const account = await requireRecipientAccount(scope, accountId);
    const previousAccountId = row.account_id;
    scope.em.assign(row, { ...fields, account_id: account.id });
    await scope.em.flush();
    scope.audit(replace ? 'recipient.replace' : 'recipient.update', 'recipient', row.id, {
      fields: [...write.present],
    });
    await publishAccountOf(scope, account.id);
    if (previousAccountId !== account.id) await publishAccountOf(scope, previousAccountId);
    return toRecipientView(row, account.code, await selfServiceIsOn(scope.em, scope.organizationId));
  });
}

export async function deleteRecipient(deps: AccountsDeps, context: RequestContext, uuid: string): Promise<void> {
  await runChange(deps, context, async (scope) => {
    const row = await requireRecipient(scope.em, scope.organizationId, uuid);
    scope.em.remove(row);
    await scope.em.flush();
    scope.audit('recipient.delete', 'recipient', row.id, { account: row.account_id });
    await publishAccountOf(scope, row.account_id);
  });
}

export async function getRecipient(deps: AccountsDeps, context: RequestContext, uuid: string): Promise<RecipientView> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  return viewOf(em, organizationId, await requireRecipient(em, organizationId, uuid));
}

export async function listRecipients(
  deps: AccountsDeps,
  context: RequestContext,
  accountId: string | undefined,
  page: PageSpec,
): Promise<{ count: number; recipients: RecipientView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { column, direction } = resolveOrdering(page.ordering || 'created_date', RECIPIENT_ORDERING, 'created_date');
  const [rows, count] = await em.findAndCount(
    RecipientEntity,
    { organization_id: organizationId, ...(accountId ? { account_id: accountId } : {}) },
    {
      orderBy: [{ [column]: direction }, { id: 'asc' }],
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    },
  );
  const accountIds = [...new Set(rows.map((row) => row.account_id))];
  const [accounts, selfService] = await Promise.all([
    findAccountsByIds(em, organizationId, accountIds),
    selfServiceIsOn(em, organizationId),
  ]);
  const codes = new Map(accounts.map((account) => [account.id, account.code]));
  return {
    count,
    recipients: rows.map((row) => toRecipientView(row, codes.get(row.account_id) ?? '', selfService)),
  };
}
