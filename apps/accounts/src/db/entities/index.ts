import { AuditLogEntry } from '@billing/db';
import { InboxMessage, OutboxMessage } from '@billing/events';
import { exportEntities } from '@billing/exports';
import { AccountEntity } from './account.entity.js';
import { AccountBudgetEntity } from './account-budget.entity.js';
import { AccountChargeEntity } from './account-charge.entity.js';
import { AccountDraftLineEntity } from './account-draft-line.entity.js';
import { AccountInvoiceEntity } from './account-invoice.entity.js';
import { AccountPaymentCardEntity } from './account-payment-card.entity.js';
import { AccountPaymentMeansEntity } from './account-payment-means.entity.js';
import { AccountSubscriptionEntity } from './account-subscription.entity.js';
import { ApiUserEntity } from './api-user.entity.js';
import { BankAccountEntity } from './bank-account.entity.js';
import { ChurnReasonEntity } from './churn-reason.entity.js';
import { EinvoiceFieldMappingEntity } from './einvoice-field-mapping.entity.js';
import { GatewayCredentialEntity } from './gateway-credential.entity.js';
import { OrganizationEntity } from './organization.entity.js';
import { PaymentGatewayAccountEntity } from './payment-gateway-account.entity.js';
import { RecipientEntity } from './recipient.entity.js';
import { SelfServiceSignInEntity } from './self-service-sign-in.entity.js';
import { WebhookEntity } from './webhook.entity.js';
import { WebhookAttemptEntity } from './webhook-attempt.entity.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';

/** Every table of the accounts schema (migrations are generated from this list). */
export const accountsEntities = [
  OrganizationEntity,
  ApiUserEntity,
  BankAccountEntity,
  GatewayCredentialEntity,
  AccountEntity,
  RecipientEntity,
  PaymentGatewayAccountEntity,
  AccountPaymentMeansEntity,
  AccountPaymentCardEntity,
  AccountSubscriptionEntity,
  AccountDraftLineEntity,
  AccountInvoiceEntity,
  AccountChargeEntity,
  ChurnReasonEntity,
  WebhookEntity,
  WebhookDeliveryEntity,
  WebhookAttemptEntity,
  AccountBudgetEntity,
  EinvoiceFieldMappingEntity,
  SelfServiceSignInEntity,
  AuditLogEntry,
  OutboxMessage,
  InboxMessage,
  ...exportEntities,
];
