// The REST representation of the objects more than one package shows: the gateway answers with
// it, and the accounts service sends it as the `data` of webhook deliveries (docs/architecture.md).
export {
  presentAccount,
  presentAccountRead,
  presentAccountWithSubscriptions,
  presentPaymentGatewayAccount,
  presentRecipient,
} from './account.js';
export { type ActivityPlans, presentActivity } from './activity.js';
export { presentPlan, presentPlanTerms } from './catalog.js';
export { presentChurnReason } from './churn-reason.js';
export { type DraftLineRepresentation, presentDraftLine } from './draft-line.js';
export {
  type AccountsByUuid,
  type DetailExtras,
  decimalToNumber,
  EINVOICE_STATUSES,
  INVOICE_STATUSES,
  type InvoiceEmbeds,
  KICKBACK_STATUSES,
  presentInvoice,
  presentInvoiceLine,
  presentInvoiceListItem,
  presentKickback,
  presentVatBillingPeriod,
  shownKickbackStatus,
} from './invoice.js';
export { presentPaymentAttempt } from './payment-attempt.js';
export { presentPaymentCard } from './payment-card.js';
export { nullable, REPRESENTATION_DATE, tagged } from './representation.js';
export {
  effectivePaymentTerms,
  needsOrganizationPaymentTerms,
  presentEmbeddedAccount,
  presentEmbeddedPlan,
  presentSubscription,
  type SubscriptionEmbeds,
  type SubscriptionRepresentation,
} from './subscription.js';
