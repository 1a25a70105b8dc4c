import { inTransaction } from '@billing/db';
import type { MikroORM } from '@mikro-orm/postgresql';
import { rederiveAccountActivities } from '../db/account-activity-store.js';
import { lockOrganizationActivities, organizationEventLog } from '../db/event-log.js';
import { applyActivityEvent } from '../events/consumers.js';
import { organizationSettings } from './organization-settings.js';

export interface RebuildReport {
  organization: string;
  events: number;
  activities: number;
  account_activities: number;
}

/**
 * Rebuilds an organization's activities, account activities and MRR from the events analytics
 * applied before (its journal, event_log), in one transaction under the organization's lock (its
 * events wait meanwhile, then apply once): everything made from events is deleted and the journal
 * replayed in order through the same code the consumers run; manual activities are kept and the
 * accounts they name derived again.
 */
export async function rebuildOrganization(orm: MikroORM, organizationId: string): Promise<RebuildReport> {
  return inTransaction(orm, async (em) => {
    await organizationSettings(em, organizationId);
    await lockOrganizationActivities(em, organizationId);
    for (const table of ['account_activity', 'activity']) {
      await em.execute(`delete from ${table} where organization_id = ? and not is_manual`, [organizationId]);
    }
    await em.execute('delete from subscription_mrr where organization_id = ?', [organizationId]);
    await em.execute('delete from mrr_totals where organization_id = ?', [organizationId]);
    const journal = await organizationEventLog(em, organizationId);
    for (const event of journal) {
      await applyActivityEvent(em, { ...event, payload: Buffer.from(event.payload) });
      await em.flush();
    }
    const manual = await em.execute<Array<{ account_id: string }>>(
      'select distinct account_id from activity where organization_id = ? and is_manual',
      [organizationId],
    );
    const last = journal[journal.length - 1]?.occurred_at ?? new Date(0);
    for (const { account_id } of manual) await rederiveAccountActivities(em, organizationId, account_id, last);
    const [counts] = await em.execute<Array<{ activities: string; account_activities: string }>>(
      `select (select count(*) from activity where organization_id = ?) as activities,
              (select count(*) from account_activity where organization_id = ?) as account_activities`,
      [organizationId, organizationId],
    );
    return {
      organization: organizationId,
      events: journal.length,
      activities: Number(counts?.activities ?? 0),
      account_activities: Number(counts?.account_activities ?? 0),
    };
  });
}
