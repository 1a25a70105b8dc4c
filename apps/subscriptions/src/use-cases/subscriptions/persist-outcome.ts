import { randomUUID } from 'node:crypto';
import { countAfterCommit } from '@billing/db';
import { AppError } from '@billing/errors';
import { subscriptionsRenewedTotal } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import { chargeView } from '../../db/charge-view.js';
import { ChargeEntity, type ChargeRow } from '../../db/entities/charge.entity.js';
import type { SubscriptionRow } from '../../db/entities/subscription.entity.js';
import { loadOrganizationMoney } from '../../db/organization-money-store.js';
import {
  type CatalogEntry,
  contractResolver,
  loadCatalog,
  termsIdsOf,
  termsSnapshot,
} from '../../db/subscription-catalog.js';
import { stateColumns, stateOf } from '../../db/subscription-state.js';
import { chargeIdsOfSubscription } from '../../db/subscription-store.js';
import { changedProperties, countChange } from '../../db/subscription-version.js';
import { subscriptionView } from '../../db/subscription-view.js';
import type { OrganizationMoney } from '../../domain/base-currency.js';
import {
  type AccountContracts,
  type LifecycleEvent,
  LifecycleFieldError,
  LifecycleRefusal,
  linesTotal,
  SubscriptionEngine,
  type SubscriptionState,
  type TermsSnapshot,
} from '../../domain/lifecycle/index.js';
import { publishChargeCreated, publishSubscriptionChanges } from '../../events/subscription-events.js';
import type { ChangeScope } from '../change-transaction.js';

const EXPIRED: SubscriptionState['status'] = 'expired';

/** The pieces of a subscription's world an engine run needs, loaded in a few queries. */
export interface EngineWorld {
  catalog: Map<string, CatalogEntry>;
  terms(uuid: string): TermsSnapshot;
  entry(uuid: string): CatalogEntry;
  /** The organization's base currency and rates; null until accounts' events brought them. */
  organization(organizationId: string): OrganizationMoney | null;
}

export async function loadWorld(
  em: EntityManager,
  organizationId: string,
  termsIds: Iterable<string>,
): Promise<EngineWorld> {
  return worldOf(await loadCatalog(em, organizationId, termsIds), await loadOrganizationMoney(em, [organizationId]));
}

/** Lookups over loaded catalog entries; a missing entry is a broken invariant (terms are never deleted while used). */
export function worldOf(
  catalog: Map<string, CatalogEntry>,
  organizations: Map<string, OrganizationMoney>,
): EngineWorld {
  const entry = (uuid: string): CatalogEntry => {
    const found = catalog.get(uuid);
    if (!found) throw AppError.internal(`Plan terms ${uuid} of a subscription are missing.`);
    return found;
  };
  return {
    catalog,
    entry,
    terms: (uuid) => termsSnapshot(entry(uuid).terms),
    organization: (organizationId) => organizations.get(organizationId) ?? null,
  };
}

/** Engine refusals as the contract's 400s. */
export function asAppError(error: unknown): unknown {
  if (error instanceof LifecycleRefusal) return AppError.refused(error.reason, error.message);
  if (error instanceof LifecycleFieldError) return AppError.invalidField(error.field, error.message);
  return error;
}

/**
 * Runs the engine over one (locked) subscription: first everything already due, then `operate`,
 * then what became due by it; stores the state, the charges (unique per period or change) and
 * the events, all in the scope's transaction (written at its flush).
 */
export async function runEngine(
  scope: ChangeScope,
  row: SubscriptionRow,
  operate: (engine: SubscriptionEngine, world: EngineWorld) => void | Promise<void>,
  options: { extraTerms?: string[]; catchUpFirst?: boolean } = {},
): Promise<SubscriptionEngine> {
  const termsIds = [...termsIdsOf(row), ...(options.extraTerms ?? [])];
  const world = await loadWorld(scope.em, scope.organizationId, termsIds);
  const contracts = await contractResolver(scope.em, scope.organizationId, row.account_id, row.time_zone);
  return runLoadedEngine(scope, row, world, contracts, operate, options.catchUpFirst ?? true);
}

/** runEngine with the catalog and contracts already loaded (the scheduler loads them per batch). */
export async function runLoadedEngine(
  scope: ChangeScope,
  row: SubscriptionRow,
  world: EngineWorld,
  contracts: AccountContracts,
  operate: (engine: SubscriptionEngine, world: EngineWorld) => void | Promise<void>,
  catchUpFirst = true,
  writes: EngineWrites = unitOfWork(scope.em),
): Promise<SubscriptionEngine> {
  const engine = new SubscriptionEngine(stateOf(row, world.terms), { ...contracts, newId: randomUUID });
  try {
    if (catchUpFirst) engine.advance(scope.now);
    await operate(engine, world);
    engine.advance(scope.now);
  } catch (error) {
    throw asAppError(error);
  }
  persistEngine(scope, row, engine, world, writes, await earlierChargesToName(scope, row, engine));
  return engine;
}

/**
 * A change that leaves the subscription expired names all its charges in its events: accounts keeps
 * them and does not delete the account while one is still on its way to an invoice (an earlier
 * renewal's charge may be as much in flight as this change's last one). docs/architecture.md
 * "Invoices and account deletion".
 */
async function earlierChargesToName(
  scope: ChangeScope,
  row: SubscriptionRow,
  engine: SubscriptionEngine,
): Promise<string[]> {
  const { state, events } = engine.outcome();
  if (events.length === 0 || state.status !== EXPIRED) return [];
  return chargeIdsOfSubscription(scope.em, scope.organizationId, row.id);
}

/** Where an engine run's row changes and charges go: the unit of work, or a batch writer (the scheduler). */
export interface EngineWrites {
  /**
   * Stages new values of the row's columns. The row's version is counted when a value changes, or
   * always with `recorded` (a change its events announce: two edits at one frozen test-clock instant
   * may leave every value as it was, yet each event must carry a newer version).
   */
  update(row: SubscriptionRow, columns: Partial<SubscriptionRow>, recorded?: boolean): void;
  insertCharge(charge: ChargeRow): ChargeRow;
}

export function unitOfWork(em: EntityManager): EngineWrites {
  return {
    update: (row, columns, recorded = false) => {
      if (recorded || changedProperties(row, columns).length > 0) countChange(row);
      em.assign(row, columns);
    },
    insertCharge: (charge) => em.create(ChargeEntity, charge),
  };
}

/** Stages an engine run in `writes` (the unit of work): row columns, charge rows with charge.created, subscription.changed per event. */
export function persistEngine(
  scope: ChangeScope,
  row: SubscriptionRow,
  engine: SubscriptionEngine,
  world: EngineWorld,
  writes: EngineWrites = unitOfWork(scope.em),
  /** Charges of the subscription committed before (named when it ends expired: earlierChargesToName). */
  earlierCharges: readonly string[] = [],
): void {
  const { state, charges, events } = engine.outcome();
  countRenewals(scope, events);
  const columns = stateColumns(state, engine.nextDueAt());
  if (charges.length === 0 && events.length === 0) {
    // Nothing happened, but the scheduler must not find the row due again for nothing.
    writes.update(row, { due_at: columns.due_at ?? null });
    return;
  }
  // Before the events are built: their snapshot carries the version this change gives the row.
  writes.update(row, { ...columns, updated_at: scope.now }, true);
  const chargeIds = [...earlierCharges];
  for (const draft of charges) {
    const charge = writes.insertCharge({
      id: randomUUID(),
      organization_id: scope.organizationId,
      subscription_id: row.id,
      account_id: row.account_id,
      kind: draft.kind,
      period_start: draft.period_start,
      change_key: draft.key,
      due_at: draft.due_at,
      currency: draft.currency,
      amount: linesTotal(draft.lines, draft.currency),
      lines: draft.lines,
      credit_all_invoices: draft.credit_all_invoices,
      // A test clock's advance waits until it is invoiced (ProcessDue), whoever made it.
      awaiting_invoice: row.on_test_clock,
      created_at: scope.now,
    });
    publishChargeCreated(scope, chargeView(charge, row, world.entry));
    chargeIds.push(charge.id);
  }
  publishEvents(scope, row, state, events, world, state.status === EXPIRED ? chargeIds : []);
}

/** Renewals count in billing_subscriptions_renewed_total once their transaction commits. */
function countRenewals(scope: ChangeScope, events: readonly LifecycleEvent[]): void {
  const renewals = events.filter((event) => event.change === 'renewed').length;
  countAfterCommit(scope.em, 'subscriptions_renewed', renewals, (total) => subscriptionsRenewedTotal.inc(total));
}

export function publishEvents(
  scope: ChangeScope,
  row: SubscriptionRow,
  state: SubscriptionState,
  events: readonly LifecycleEvent[],
  world: EngineWorld,
  charges: readonly string[] = [],
): void {
  if (events.length === 0) return;
  publishSubscriptionChanges(scope, subscriptionView(row, state, world), events, state, charges);
}
