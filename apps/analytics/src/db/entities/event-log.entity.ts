import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Analytics' own journal of the events its activities are made from (subscription.changed,
 * invoice.*), appended in the transaction that applies each one, in the order they were applied:
 * the history a rebuild replays (docs/analytics.md "Rebuild").
 */
export const EventLogEntity = defineEntity({
  name: 'EventLog',
  tableName: 'event_log',
  indexes: [{ name: 'event_log_organization_position_idx', properties: ['organization_id', 'position'] }],
  properties: {
    position: p.bigint('number').autoincrement().primary(),
    event_id: p.uuid().unique(),
    organization_id: p.uuid(),
    event_type: p.string().length(64),
    payload_type: p.string().length(128),
    occurred_at: p.datetime(),
    payload: p.blob(),
  },
});
export type EventLogRow = InferEntity<typeof EventLogEntity>;
