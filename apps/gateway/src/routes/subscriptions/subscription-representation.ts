// In @billing/rest-representation: webhook deliveries show subscriptions exactly as the API does.
export {
  effectivePaymentTerms,
  needsOrganizationPaymentTerms,
  presentEmbeddedAccount,
  presentEmbeddedPlan,
  presentSubscription,
  type SubscriptionEmbeds,
  type SubscriptionRepresentation,
} from '@billing/rest-representation';
