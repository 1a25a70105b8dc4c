// Generated protobuf code lives in ./gen (regenerate with `npm run proto`); this file names it, and
// encodeMessage, which encodes with one writer reused from message to message (events and their payloads),
// and peekStrings / peekMessage / peekRepeatedMessages, which read a field or two of an encoded message
// without decoding it (peek-fields.ts).
export { encodeMessage, type MessageEncoder } from './encode-message.js';
export * as accountsV1 from './gen/billing/accounts/v1/accounts.js';
export * as selfServiceV1 from './gen/billing/accounts/v1/self_service.js';
export * as webhooksV1 from './gen/billing/accounts/v1/webhooks.js';
export * as analyticsV1 from './gen/billing/analytics/v1/analytics.js';
export * as commonV1 from './gen/billing/common/v1/common.js';
export * as accountEventsV1 from './gen/billing/events/v1/accounts.js';
export * as activityEventsV1 from './gen/billing/events/v1/analytics.js';
export * as catalogEventsV1 from './gen/billing/events/v1/catalog.js';
export * as contractEventsV1 from './gen/billing/events/v1/contracts.js';
export * as eventsV1 from './gen/billing/events/v1/envelope.js';
export * as invoiceEventsV1 from './gen/billing/events/v1/invoicing.js';
export * as paymentEventsV1 from './gen/billing/events/v1/payments.js';
export * as subscriptionEventsV1 from './gen/billing/events/v1/subscriptions.js';
export * as exportsV1 from './gen/billing/exports/v1/exports.js';
export * as invoicingV1 from './gen/billing/invoicing/v1/invoicing.js';
export * as paymentsV1 from './gen/billing/payments/v1/payments.js';
export * as catalogV1 from './gen/billing/subscriptions/v1/catalog.js';
export * as chargesV1 from './gen/billing/subscriptions/v1/charges.js';
export * as contractsV1 from './gen/billing/subscriptions/v1/contracts.js';
export * as subscriptionsV1 from './gen/billing/subscriptions/v1/subscriptions.js';
export * as protobufAny from './gen/google/protobuf/any.js';
export * as rpcStatus from './gen/google/rpc/status.js';
export * as healthV1 from './gen/grpc/health/v1/health.js';
export { peekMessage, peekRepeatedMessages, peekStrings } from './peek-fields.js';
