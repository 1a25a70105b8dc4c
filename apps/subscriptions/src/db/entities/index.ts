import { AuditLogEntry } from '@billing/db';
import { InboxMessage, OutboxMessage } from '@billing/events';
import { exportEntities } from '@billing/exports';
import { ChargeEntity } from './charge.entity.js';
import { ContractEntity } from './contract.entity.js';
import { ContractTierEntity } from './contract-tier.entity.js';
import { OrganizationMoneyEntity } from './organization-money.entity.js';
import { PlanEntity } from './plan.entity.js';
import { PlanTermsEntity } from './plan-terms.entity.js';
import { SubscriptionEntity } from './subscription.entity.js';

/** Every table of the subscriptions schema (migrations are generated from this list). */
export const subscriptionsEntities = [
  PlanEntity,
  PlanTermsEntity,
  ContractEntity,
  ContractTierEntity,
  SubscriptionEntity,
  ChargeEntity,
  OrganizationMoneyEntity,
  AuditLogEntry,
  OutboxMessage,
  InboxMessage,
  ...exportEntities,
];
