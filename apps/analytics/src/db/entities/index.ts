import { AuditLogEntry } from '@billing/db';
import { InboxMessage, OutboxMessage } from '@billing/events';
import { exportEntities } from '@billing/exports';
import { AccountActivityEntity, ActivityEntity } from './activity.entity.js';
import { EventLogEntity } from './event-log.entity.js';
import {
  AccountEntity,
  ChurnReasonEntity,
  OrganizationEntity,
  PlanEntity,
  PlanTermsEntity,
} from './read-models.entity.js';
import { MrrTotalsEntity, SubscriptionMrrEntity } from './subscription-mrr.entity.js';

export * from './activity.entity.js';
export * from './event-log.entity.js';
export * from './read-models.entity.js';
export * from './subscription-mrr.entity.js';

/** The analytics schema: read models of its producers' data, MRR per subscription, activities. */
export const analyticsEntities = [
  AuditLogEntry,
  OutboxMessage,
  InboxMessage,
  OrganizationEntity,
  AccountEntity,
  PlanEntity,
  PlanTermsEntity,
  ChurnReasonEntity,
  SubscriptionMrrEntity,
  MrrTotalsEntity,
  ActivityEntity,
  AccountActivityEntity,
  EventLogEntity,
  // Export jobs and their stored pages (libs/exports): the activity and account activity lists' CSVs.
  ...exportEntities,
];
