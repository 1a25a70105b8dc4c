import { AuditLogEntry } from '@billing/db';
import { InboxMessage, OutboxMessage } from '@billing/events';
import { PlanEntity } from './plan.entity.js';
import { PlanTermsEntity } from './plan-terms.entity.js';

/** Every table of the subscriptions schema (migrations are generated from this list). */
export const subscriptionsEntities = [PlanEntity, PlanTermsEntity, AuditLogEntry, OutboxMessage, InboxMessage];
