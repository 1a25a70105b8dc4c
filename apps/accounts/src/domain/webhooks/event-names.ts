/**
 * The public webhook event names (gaps.md §12). The first group is what a webhook registered
 * without `events` receives; the payment and card events are opt-in.
 */
export const DEFAULT_WEBHOOK_EVENTS = [
  'account.created',
  'account.updated',
  'plan_terms.created',
  'plan_terms.updated',
  'new_invoice',
  'paid_invoice',
  'cancel_subscription',
  'renew_subscription_soon',
  'new_activity',
] as const;

export const OPT_IN_WEBHOOK_EVENTS = [
  'payment.authentication_required',
  'payment.declined',
  'card_expires_this_month',
  'payment_card.activated',
  'payment_card.deactivated',
] as const;

export const WEBHOOK_EVENT_NAMES = [...DEFAULT_WEBHOOK_EVENTS, ...OPT_IN_WEBHOOK_EVENTS] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

const KNOWN = new Set<string>(WEBHOOK_EVENT_NAMES);

export const isWebhookEventName = (name: string): name is WebhookEventName => KNOWN.has(name);
