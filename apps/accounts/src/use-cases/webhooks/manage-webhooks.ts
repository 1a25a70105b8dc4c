import { randomBytes, randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { applyWrite, type PageSpec, resolveOrdering, type Write } from '@billing/domain-kit';
import { AppError, StatusCode } from '@billing/errors';
import { isEventBusUnavailable } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { WebhookEntity, type WebhookRow } from '../../db/entities/webhook.entity.js';
import { notifyWebhooksChanged } from '../../db/webhook-change-notices.js';
import { findWebhookPage, requireWebhook, webhookView } from '../../db/webhook-store.js';
import { isPrivateAddress, literalAddress, PRIVATE_ENDPOINT_MESSAGE } from '../../domain/webhooks/endpoint-address.js';
import {
  normaliseWebhook,
  WEBHOOK_SHAPE,
  type WebhookFields,
  type WebhookView,
} from '../../domain/webhooks/webhook-fields.js';
import { type ChangeScope, requireOrganization, runChange } from '../change-transaction.js';
import type { WebhooksDeps } from './webhooks-deps.js';

const ORDERING: Readonly<Record<string, string>> = { created_date: 'created_at', endpoint: 'endpoint' };

/** Standard Webhooks secrets: `whsec_` and the base64 of the key (32 random bytes). */
const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

function fieldsOf(row: WebhookRow): WebhookFields {
  return {
    endpoint: row.endpoint,
    basic_auth_username: row.basic_auth_username,
    basic_auth_password: row.basic_auth_password,
    enabled: row.enabled,
    events: [...row.events],
  };
}

/**
 * When the operator forbids private endpoints: a host that is, or resolves to, a loopback or
 * private address is refused here; the delivery checks the address it connects to again.
 */
async function checkEndpointNetwork(deps: WebhooksDeps, endpoint: string): Promise<void> {
  if (!deps.webhooks.forbidPrivateEndpoints) return;
  const host = new URL(endpoint).hostname;
  const literal = literalAddress(host);
  let addresses: string[];
  if (literal) {
    addresses = [literal];
  } else {
    // A name that does not resolve now may later; its deliveries are checked when they connect.
    addresses = await lookup(host, { all: true }).then(
      (found) => found.map((entry) => entry.address),
      () => [],
    );
  }
  if (host === 'localhost' || addresses.some(isPrivateAddress)) {
    throw AppError.invalidField('endpoint', PRIVATE_ENDPOINT_MESSAGE);
  }
}

async function checked(
  deps: WebhooksDeps,
  current: WebhookFields | null,
  write: Write<WebhookFields>,
  mode: 'create' | 'replace' | 'patch',
): Promise<WebhookFields> {
  const applied = applyWrite(WEBHOOK_SHAPE, current, write, mode);
  if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
  const normalised = normaliseWebhook(applied.fields as WebhookFields);
  if (normalised.violations.length > 0) throw AppError.invalid(normalised.violations);
  if (write.present.has('endpoint')) await checkEndpointNetwork(deps, normalised.fields.endpoint);
  return normalised.fields;
}

/**
 * What a webhook change leaves of the caller's deadline for its transaction: the durables are
 * made before it within the rest, so that a bus that does not answer is reported (503) instead of
 * the caller timing out while the change commits (a retried POST would then make a second webhook).
 */
export const WEBHOOK_TRANSACTION_MARGIN_MS = 1_000;

/**
 * The events the webhook takes reach the webhook consumers before its change commits; when that
 * cannot be made sure in time (the event bus is unreachable or slow), the change is not made and
 * may be retried (REST 503). Any other failure is a fault (500, logged).
 */
async function openEventConsumers(
  deps: WebhooksDeps,
  context: RequestContext,
  events: readonly string[],
): Promise<void> {
  // Real time, not the organization's clock: the deadline is the caller's, on the wall clock.
  const timeLeft =
    context.deadline === undefined
      ? Number.POSITIVE_INFINITY
      : context.deadline - Date.now() - WEBHOOK_TRANSACTION_MARGIN_MS;
  try {
    await deps.webhookEventConsumers?.openFor(events, timeLeft);
  } catch (cause) {
    if (!isEventBusUnavailable(cause)) throw cause;
    // No time was left to wait for the bus (a slow endpoint check before): not the bus's fault.
    if (timeLeft <= 0) {
      throw new AppError({
        code: StatusCode.DEADLINE_EXCEEDED,
        reason: 'DEADLINE_EXCEEDED',
        message: 'The request ran out of time; the webhook was not changed.',
        cause,
      });
    }
    throw new AppError({
      code: StatusCode.UNAVAILABLE,
      reason: 'EVENTS_UNAVAILABLE',
      message: 'The event bus cannot be reached; the webhook was not changed.',
      cause,
    });
  }
}

/**
 * A change of the organization's webhooks in one transaction that also announces it to the other
 * replicas (at its commit); this process's cache of enabled webhooks knows nothing of the
 * organization until the change ended. `result` is the webhook as the change leaves it (none for
 * a deletion): the events it takes, when enabled, are consumed before the change commits.
 */
async function runWebhookChange<T>(
  deps: WebhooksDeps,
  context: RequestContext,
  result: WebhookFields | null,
  change: (scope: ChangeScope) => Promise<T>,
): Promise<T> {
  if (result?.enabled) await openEventConsumers(deps, context, result.events);
  const transaction = () =>
    runChange(deps, context, async (scope) => {
      const result = await change(scope);
      await notifyWebhooksChanged(scope.em, scope.organizationId);
      return result;
    });
  return deps.enabledWebhooks
    ? deps.enabledWebhooks.changeOf(requireOrganization(context), transaction)
    : transaction();
}

/** A new webhook and its signing secret, which is shown this once. */
export async function createWebhook(
  deps: WebhooksDeps,
  context: RequestContext,
  write: Write<WebhookFields>,
): Promise<{ webhook: WebhookView; secret: string }> {
  const fields = await checked(deps, null, write, 'create');
  return runWebhookChange(deps, context, fields, async (scope) => {
    const row = scope.em.create(WebhookEntity, {
      id: randomUUID(),
      organization_id: scope.organizationId,
      ...fields,
      secret: newSecret(),
      created_at: scope.now,
      updated_at: scope.now,
    });
    await scope.em.flush();
    scope.audit('webhook.create', 'webhook', row.id, { endpoint: row.endpoint, events: row.events });
    return { webhook: webhookView(row), secret: row.secret };
  });
}

export async function updateWebhook(
  deps: WebhooksDeps,
  context: RequestContext,
  uuid: string,
  write: Write<WebhookFields>,
  replace: boolean,
): Promise<WebhookView> {
  const organizationId = requireOrganization(context);
  // Checked before the transaction: the endpoint check may resolve a name.
  const current = await requireWebhook(deps.orm.em.fork(), organizationId, uuid);
  const fields = await checked(deps, fieldsOf(current), write, replace ? 'replace' : 'patch');
  return runWebhookChange(deps, context, fields, async (scope) => {
    const row = await requireWebhook(scope.em, scope.organizationId, uuid);
    scope.em.assign(row, { ...fields, updated_at: scope.now });
    await scope.em.flush();
    scope.audit(replace ? 'webhook.replace' : 'webhook.update', 'webhook', row.id, { fields: [...write.present] });
    return webhookView(row);
  });
}

/** Removes the webhook with its deliveries and their attempts. */
export async function deleteWebhook(deps: WebhooksDeps, context: RequestContext, uuid: string): Promise<void> {
  await runWebhookChange(deps, context, null, async (scope) => {
    const row = await requireWebhook(scope.em, scope.organizationId, uuid);
    await scope.em.execute(
      'delete from webhook_attempt where delivery_id in (select id from webhook_delivery where webhook_id = ?)',
      [row.id],
    );
    await scope.em.execute('delete from webhook_delivery where webhook_id = ?', [row.id]);
    scope.em.remove(row);
    await scope.em.flush();
    scope.audit('webhook.delete', 'webhook', row.id, { endpoint: row.endpoint });
  });
}

export async function getWebhook(deps: WebhooksDeps, context: RequestContext, uuid: string): Promise<WebhookView> {
  return webhookView(await requireWebhook(deps.orm.em.fork(), requireOrganization(context), uuid));
}

export async function listWebhooks(
  deps: WebhooksDeps,
  context: RequestContext,
  page: PageSpec,
): Promise<{ count: number; webhooks: WebhookView[] }> {
  const organizationId = requireOrganization(context);
  const { column, direction } = resolveOrdering(page.ordering || 'created_date', ORDERING, 'created_date');
  const [rows, count] = await findWebhookPage(deps.orm.em.fork(), organizationId, {
    column,
    direction,
    limit: page.pageSize,
    offset: (page.page - 1) * page.pageSize,
  });
  return { count, webhooks: rows.map(webhookView) };
}
