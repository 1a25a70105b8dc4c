import type { EventEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { CollectedChangeRecords } from '@billing/runtime';
import type { EntityManager } from '@mikro-orm/postgresql';
import { insertChargeRows } from '../../db/charge-bulk-insert.js';
import type { ChargeRow } from '../../db/entities/charge.entity.js';
import type { SubscriptionRow } from '../../db/entities/subscription.entity.js';
import { type SubscriptionProperty, updateSubscriptionRows } from '../../db/subscription-bulk-update.js';
import { changedProperties, countChange } from '../../db/subscription-version.js';
import type { ChangeScope } from '../change-transaction.js';
import type { EngineWrites } from './persist-outcome.js';

const PRODUCER = 'subscriptions';

/**
 * The writes of a whole scheduler batch, collected while the engine runs over each row and then
 * written with three multi-row statements (subscriptions, charges, outbox) in the batch's
 * transaction. The same rows as the unit of work would write, without its per-entity cost
 * (change sets, identity map, one INSERT/UPDATE per entity), which dominated a batch.
 * The subscription rows must be plain objects the unit of work does not track.
 */
export class BatchWrites implements EngineWrites {
  private readonly rows = new Map<string, SubscriptionRow>();
  private readonly properties = new Set<SubscriptionProperty>();
  private readonly charges: ChargeRow[] = [];
  /** The envelopes of the batch's events, for handing them over once the batch committed. */
  readonly envelopes: EventEnvelope[] = [];
  /** Its events; audit rows stay with the unit of work, as changeScope writes them. */
  private readonly records = new CollectedChangeRecords(PRODUCER, {
    published: this.envelopes,
    auditsByUnitOfWork: true,
  });

  update(row: SubscriptionRow, columns: Partial<SubscriptionRow>, recorded = false): void {
    // Like the unit of work, write only columns whose value changes (dates by instant, JSON by
    // content), and only rows that change: each written row's version grows by one.
    const changed = changedProperties(row, columns);
    for (const property of changed) this.properties.add(property);
    Object.assign(row, columns);
    if (changed.length > 0 || recorded) {
      countChange(row);
      this.rows.set(row.id, row);
    }
  }

  insertCharge(charge: ChargeRow): ChargeRow {
    this.charges.push(charge);
    return charge;
  }

  /** changeScope whose events are collected here (same envelope as appendToOutbox) instead of the unit of work. */
  scope(em: EntityManager, organizationId: string, context: RequestContext, now: Date): ChangeScope {
    return this.records.scope(em, organizationId, context, now);
  }

  /**
   * Writes everything collected; every changed row gets every column any row changed (unchanged
   * ones keep their value) and its version plus one, as counted on the row objects.
   */
  async write(em: EntityManager): Promise<void> {
    await updateSubscriptionRows(em, [...this.rows.values()], [...this.properties]);
    await insertChargeRows(em, this.charges);
    await this.records.write(em);
  }
}
