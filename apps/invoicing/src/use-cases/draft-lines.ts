import { randomUUID } from 'node:crypto';
import { applyWrite, isUuid, type PageSpec, resolveOrdering, type Write, type WriteMode } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { type ChangeScope, requireOrganization, runChange } from '@billing/runtime';
import { requireDraftLine } from '../db/draft-line-store.js';
import { currentFields, draftLineView, rowValues } from '../db/draft-line-view.js';
import { DraftInvoiceLineEntity } from '../db/entities/draft-invoice-line.entity.js';
import { takesBaseCurrency, withBaseCurrency } from '../domain/draft-lines/currency-default.js';
import type { DraftLineView } from '../domain/draft-lines/draft-line-view.js';
import { DRAFT_LINE_SHAPE, type DraftLineFields, draftLineViolations } from '../domain/draft-lines/fields.js';
import { publishDraftLineEvent } from '../events/draft-line-events.js';
import type { InvoicingDeps } from './deps.js';

/**
 * The draft-line use cases need the database, the clock, the directory (the organization's base
 * currency) and (optionally) the read model hand-over.
 */
export type DraftLineDeps = Pick<InvoicingDeps, 'orm' | 'clock' | 'directory' | 'committedEvents'>;

/** GET /api/v1/draftinvoicelines/: a page, optionally of one account's lines. */
export interface DraftLineQuery {
  page: PageSpec;
  /** Account uuid filter; null: every account. */
  account: string | null;
}

const LINE_ORDERING: Readonly<Record<string, string>> = {
  created_date: 'created_at',
  last_modified_date: 'updated_at',
  date_from: 'date_from',
  date_to: 'date_to',
};

/** A line uuid from the path; anything else names nothing: 404. */
function requireLineId(value: string): string {
  if (!isUuid(value)) throw AppError.notFound();
  return value;
}

/** An account filter value (the gateway checks it first; django-filter's message). */
function filterAccount(value: string): string {
  if (!isUuid(value)) throw AppError.invalidField('account', 'Enter a valid UUID.');
  return value;
}

/**
 * The write with the organization's base currency where it left currency out (currency-default.ts).
 * The accounts service is asked only then, and before the change's transaction opens, so no
 * transaction waits on a gRPC call.
 */
async function withDefaultCurrency(
  deps: DraftLineDeps,
  context: RequestContext,
  write: Write<DraftLineFields>,
  mode: WriteMode,
): Promise<Write<DraftLineFields>> {
  if (!takesBaseCurrency(write, mode)) return write;
  const seller = await deps.directory.seller(context);
  return withBaseCurrency(write, mode, seller.base_currency);
}

function prepareFields(
  current: DraftLineFields | null,
  write: Write<DraftLineFields>,
  mode: WriteMode,
): DraftLineFields {
  const applied = applyWrite(DRAFT_LINE_SHAPE, current, write, mode);
  if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
  const fields = applied.fields as DraftLineFields;
  const violations = draftLineViolations(fields, write.present);
  if (violations.length > 0) throw AppError.invalid(violations);
  return fields;
}

export async function createDraftLine(
  deps: DraftLineDeps,
  context: RequestContext,
  write: Write<DraftLineFields>,
): Promise<DraftLineView> {
  const complete = await withDefaultCurrency(deps, context, write, 'create');
  return runChange(deps, 'invoicing', context, (scope) => addDraftLine(scope, complete));
}

/**
 * A new draft line in the caller's change (its audit row and draft_invoice_line.created event
 * included): the create above, and a payment reminder's fee. `write` carries every required field.
 */
export async function addDraftLine(scope: ChangeScope, write: Write<DraftLineFields>): Promise<DraftLineView> {
  const fields = prepareFields(null, write, 'create');
  const row = scope.em.create(DraftInvoiceLineEntity, {
    id: randomUUID(),
    organization_id: scope.organizationId,
    ...rowValues(fields),
    invoiced_at: null,
    invoice_id: null,
    version: 1,
    created_at: scope.now,
    updated_at: scope.now,
  });
  await scope.em.flush();
  return recordChange(scope, 'create', row.id, draftLineView(row), { account: row.account_id });
}

/**
 * PUT (`replace`: the required fields must be sent, currency left out is the organization's base
 * currency; the others go back to their defaults, as DRF's PUT does) or PATCH (currency left out
 * stays the line's). The account and the currency may change while the line is a draft.
 */
export async function updateDraftLine(
  deps: DraftLineDeps,
  context: RequestContext,
  uuid: string,
  write: Write<DraftLineFields>,
  replace: boolean,
): Promise<DraftLineView> {
  const id = requireLineId(uuid);
  const mode = replace ? 'replace' : 'patch';
  const complete = await withDefaultCurrency(deps, context, write, mode);
  return runChange(deps, 'invoicing', context, async (scope) => {
    const row = await requireDraftLine(scope.em, scope.organizationId, id, true);
    const fields = prepareFields(replace ? null : currentFields(row), complete, mode);
    scope.em.assign(row, { ...rowValues(fields), version: row.version + 1, updated_at: scope.now });
    await scope.em.flush();
    // The fields the client sent, not the currency filled in for it.
    return recordChange(scope, replace ? 'replace' : 'update', row.id, draftLineView(row), {
      fields: [...write.present],
    });
  });
}

/**
 * 204; the event carries the last state with the version a change gives (+1), so a read model
 * that meets an older state of the line after the deletion knows it is older. An invoiced line
 * is gone already (404).
 */
export async function deleteDraftLine(deps: DraftLineDeps, context: RequestContext, uuid: string): Promise<void> {
  await runChange(deps, 'invoicing', context, async (scope) => {
    const row = await requireDraftLine(scope.em, scope.organizationId, requireLineId(uuid), true);
    const lastState = { ...draftLineView(row), version: row.version + 1 };
    scope.em.remove(row);
    await scope.em.flush();
    recordChange(scope, 'delete', row.id, lastState, { account: row.account_id });
  });
}

export async function getDraftLine(deps: DraftLineDeps, context: RequestContext, uuid: string): Promise<DraftLineView> {
  const organizationId = requireOrganization(context);
  const row = await requireDraftLine(deps.orm.em.fork(), organizationId, requireLineId(uuid));
  return draftLineView(row);
}

export async function listDraftLines(
  deps: DraftLineDeps,
  context: RequestContext,
  query: DraftLineQuery,
): Promise<{ count: number; lines: DraftLineView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const uninvoiced = { organization_id: organizationId, invoiced_at: null };
  const { page } = query;
  const { column, direction } = resolveOrdering(page.ordering || 'created_date', LINE_ORDERING, 'created_date');
  const [rows, count] = await em.findAndCount(
    DraftInvoiceLineEntity,
    query.account === null ? uninvoiced : { ...uninvoiced, account_id: filterAccount(query.account) },
    {
      orderBy: [{ [column]: direction }, { id: 'asc' }],
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    },
  );
  return { count, lines: rows.map(draftLineView) };
}

const EVENT_OF = {
  create: 'draft_invoice_line.created',
  replace: 'draft_invoice_line.updated',
  update: 'draft_invoice_line.updated',
  delete: 'draft_invoice_line.deleted',
} as const;

/** The audit row and the event of a change, in its transaction. */
function recordChange(
  scope: ChangeScope,
  action: keyof typeof EVENT_OF,
  id: string,
  view: DraftLineView,
  details: Record<string, unknown>,
): DraftLineView {
  scope.audit(`draft_invoice_line.${action}`, 'draft_invoice_line', id, details);
  publishDraftLineEvent(scope, EVENT_OF[action], view);
  return view;
}
