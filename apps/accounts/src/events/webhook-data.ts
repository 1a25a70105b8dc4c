import type { EventEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import {
  accountEventsV1,
  activityEventsV1,
  catalogEventsV1,
  invoiceEventsV1,
  paymentEventsV1,
  subscriptionEventsV1,
  subscriptionsV1,
} from '@billing/proto';
import {
  presentAccountRead,
  presentActivity,
  presentInvoice,
  presentPaymentAttempt,
  presentPaymentCard,
  presentPlanTerms,
  presentSubscription,
} from '@billing/rest-representation';
import { summaryMessage } from '../grpc/account-mapper.js';
import { accountReply } from '../grpc/account-replies.js';
import type { AccountsDeps } from '../use-cases/deps.js';
import { readAccount } from '../use-cases/read-accounts.js';
import { loadWebhookEmbeds } from '../use-cases/webhooks/webhook-embeds.js';

/** Renders an event's `data`: the object's REST representation, as its GET returns it. */
export type WebhookDataRenderer = (
  deps: AccountsDeps & { publicApiUrl: string },
  context: RequestContext,
  envelope: EventEnvelope,
) => Promise<unknown>;

/** The organization feature that shows kickback_status (gaps.md §7), as the gateway reads it. */
const KICKBACK_FEATURE = 'kickback';

/**
 * An account event: the account's fields as the event states them, its subscription and draft
 * line sets as this service's read models hold them when the delivery is made (as GET shows them).
 */
export const accountData: WebhookDataRenderer = async (deps, context, envelope) => {
  const account = accountEventsV1.AccountChanged.decode(envelope.payload).account!;
  const current = await readAccount(deps, context, account.code).catch(() => null);
  if (!current || current.view.uuid !== account.uuid)
    return presentAccountRead(account, { accounts: [], churn_reasons: [] });
  const reply = await accountReply(deps, context, current.view, {
    default_payment_terms: current.organizationPaymentTerms,
  });
  return presentAccountRead(
    { ...account, subscriptions: reply.account.subscriptions, draft_lines: reply.account.draft_lines },
    reply.embeds,
  );
};

export const planTermsData: WebhookDataRenderer = async (_deps, _context, envelope) =>
  presentPlanTerms(catalogEventsV1.PlanTermsChanged.decode(envelope.payload).plan_terms!);

export const subscriptionData: WebhookDataRenderer = (deps, context, envelope) =>
  subscriptionRepresentation(
    deps,
    context,
    subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload).subscription!,
  );

/** A subscription snapshot of the read model (renew_subscription_soon) as its GET shows it. */
export const subscriptionSnapshotData = (deps: AccountsDeps, context: RequestContext, snapshot: Uint8Array) =>
  subscriptionRepresentation(deps, context, subscriptionsV1.Subscription.decode(snapshot));

async function subscriptionRepresentation(
  deps: AccountsDeps,
  context: RequestContext,
  subscription: subscriptionsV1.Subscription,
) {
  const embeds = await loadWebhookEmbeds(deps, context, {
    accounts: [subscription.account],
    churnReasons: subscription.churn_reason ? [subscription.churn_reason] : [],
  });
  return presentSubscription(subscription, {
    accounts: new Map(embeds.accounts.map((summary) => [summary.uuid, summaryMessage(summary)])),
    churnReasons: new Map(embeds.churnReasons.map((reason) => [reason.uuid, reason])),
    organizationPaymentTerms: embeds.organizationPaymentTerms,
  });
}

/** The invoice's detail view without the PDF; `invoice_api_url` on the gateway's public URL. */
export const invoiceData: WebhookDataRenderer = async (deps, context, envelope) => {
  const invoice = invoiceEventsV1.InvoiceChanged.decode(envelope.payload).invoice!;
  const embeds = await loadWebhookEmbeds(deps, context, { accounts: [invoice.account], churnReasons: [] });
  return presentInvoice(
    invoice,
    {
      accounts: new Map(embeds.accounts.map((summary) => [summary.uuid, summaryMessage(summary)])),
      kickbackEnabled: embeds.organizationFeatures.includes(KICKBACK_FEATURE),
    },
    { apiUrl: new URL(`/api/v1/invoices/${invoice.uuid}/`, deps.publicApiUrl).toString() },
  );
};

/** new_activity: the activity as GET /api/v1/activities/{uuid}/ showed it when it was recorded. */
export const activityData: WebhookDataRenderer = async (_deps, _context, envelope) => {
  const { activity, plans } = activityEventsV1.ActivityChanged.decode(envelope.payload);
  return presentActivity(activity!, new Map(plans.map((plan) => [plan.uuid, plan])));
};

/** payment_card.activated / .deactivated: the card as GET /api/v1/paymentcards/{uuid}/ shows it. */
export const paymentCardData: WebhookDataRenderer = async (_deps, _context, envelope) =>
  presentPaymentCard(paymentEventsV1.PaymentCardChanged.decode(envelope.payload).card!);

/** payment.declined: the attempt with its outcome (docs/api.md "Events"). */
export const paymentAttemptData: WebhookDataRenderer = async (_deps, _context, envelope) =>
  presentPaymentAttempt(paymentEventsV1.PaymentAttemptChanged.decode(envelope.payload));
