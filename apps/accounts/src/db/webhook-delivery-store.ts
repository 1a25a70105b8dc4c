import { randomUUID } from 'node:crypto';
import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { AttemptView, DeliveryStatus, DeliveryView } from '../domain/webhooks/delivery-view.js';
import type { WebhookEventName } from '../domain/webhooks/event-names.js';
import type { AttemptOutcome } from '../domain/webhooks/retry-schedule.js';
import { WebhookAttemptEntity, type WebhookAttemptRow } from './entities/webhook-attempt.entity.js';
import { WebhookDeliveryEntity, type WebhookDeliveryRow } from './entities/webhook-delivery.entity.js';

/**
 * New deliveries, each (webhook, event) at most once: a second arrival of an event (redelivery,
 * or the other of the two delivery paths) changes nothing.
 */
export async function insertDeliveries(
  em: EntityManager,
  deliveries: ReadonlyArray<{
    organizationId: string;
    webhookId: string;
    eventName: WebhookEventName;
    eventId: string;
    payload: string;
    dueAt: Date;
    now: Date;
  }>,
): Promise<number> {
  if (deliveries.length === 0) return 0;
  const result = await em
    .createQueryBuilder(WebhookDeliveryEntity)
    .insert(
      deliveries.map((delivery) => ({
        id: randomUUID(),
        organization_id: delivery.organizationId,
        webhook_id: delivery.webhookId,
        event_name: delivery.eventName,
        event_id: delivery.eventId,
        payload: delivery.payload,
        status: 'pending',
        step: 0,
        next_attempt_at: delivery.dueAt,
        lease_until: null,
        created_at: delivery.now,
        updated_at: delivery.now,
      })),
    )
    .onConflict(['webhook_id', 'event_id'])
    .ignore()
    .execute('run');
  return result.affectedRows;
}

function attemptView(row: WebhookAttemptRow): AttemptView {
  return {
    attempt_date: row.attempted_at,
    response_status: row.response_status ?? null,
    error: row.error,
    duration_ms: row.duration_ms,
  };
}

function deliveryView(row: WebhookDeliveryRow, attempts: WebhookAttemptRow[]): DeliveryView {
  return {
    uuid: row.id,
    webhook: row.webhook_id,
    event: row.event_name as WebhookEventName,
    event_id: row.event_id,
    status: row.status as DeliveryStatus,
    next_attempt_date: row.next_attempt_at ?? null,
    created_date: row.created_at,
    payload: row.payload,
    attempts: attempts.map(attemptView),
  };
}

async function withAttempts(em: EntityManager, rows: WebhookDeliveryRow[]): Promise<DeliveryView[]> {
  if (rows.length === 0) return [];
  const attempts = await em.find(
    WebhookAttemptEntity,
    { delivery_id: { $in: rows.map((row) => row.id) } },
    { orderBy: [{ attempted_at: 'asc' }, { id: 'asc' }] },
  );
  const byDelivery = new Map<string, WebhookAttemptRow[]>();
  for (const attempt of attempts)
    byDelivery.set(attempt.delivery_id, [...(byDelivery.get(attempt.delivery_id) ?? []), attempt]);
  return rows.map((row) => deliveryView(row, byDelivery.get(row.id) ?? []));
}

/** A page of a webhook's deliveries, newest first, each with its attempts. */
export async function findDeliveryPage(
  em: EntityManager,
  organizationId: string,
  webhookId: string,
  page: { limit: number; offset: number },
): Promise<{ count: number; deliveries: DeliveryView[] }> {
  const [rows, count] = await em.findAndCount(
    WebhookDeliveryEntity,
    { organization_id: organizationId, webhook_id: webhookId },
    { orderBy: [{ created_at: 'desc' }, { id: 'desc' }], limit: page.limit, offset: page.offset },
  );
  return { count, deliveries: await withAttempts(em, rows) };
}

export async function requireDelivery(
  em: EntityManager,
  organizationId: string,
  webhookId: string,
  uuid: string,
): Promise<WebhookDeliveryRow> {
  const row = isUuid(uuid)
    ? await em.findOne(WebhookDeliveryEntity, { organization_id: organizationId, webhook_id: webhookId, id: uuid })
    : null;
  if (!row) throw AppError.notFound();
  return row;
}

export async function loadDeliveryView(em: EntityManager, row: WebhookDeliveryRow): Promise<DeliveryView> {
  return (await withAttempts(em, [row]))[0]!;
}

/** A delivery claimed for an attempt, with what the attempt needs. */
export interface ClaimedDelivery {
  id: string;
  organizationId: string;
  webhookId: string;
  eventId: string;
  payload: string;
  step: number;
  endpoint: string;
  basicAuthUsername: string;
  basicAuthPassword: string;
  secret: string;
  /** The organization's test clock when it runs on one. */
  testClockTime: Date | null;
}

interface ClaimedRow {
  id: string;
  organization_id: string;
  webhook_id: string;
  event_id: string;
  payload: string;
  step: number;
  endpoint: string;
  basic_auth_username: string;
  basic_auth_password: string;
  secret: string;
  test_clock_time: Date | string | null;
}

/**
 * Takes due deliveries (due on their organization's clock: its test clock, else `now`) for an
 * attempt, leasing them until `leaseUntil` so no other dispatcher takes them meanwhile; at most
 * `perWebhook` of any webhook, none of the webhooks in `busy`, oldest due first. SKIP LOCKED lets
 * replicas claim side by side; a row another dispatcher claimed after this statement's snapshot is
 * re-checked once locked, so it is never claimed twice.
 */
export async function claimDueDeliveries(
  pool: pg.Pool,
  options: {
    now: Date;
    leaseUntil: Date;
    limit: number;
    perWebhook: number;
    busy: readonly string[];
    organizationId: string | null;
  },
): Promise<ClaimedDelivery[]> {
  // One statement (atomic by itself): no transaction round trips around it.
  const { rows } = await pool.query<ClaimedRow>(
    `with due as (
       select d.id, coalesce(o.test_clock_time, $1::timestamptz) as clock_now,
              row_number() over (partition by d.webhook_id order by d.next_attempt_at, d.created_at, d.id) as rank
         from webhook_delivery d join organization o on o.id = d.organization_id
        where d.status = 'pending'
          and d.next_attempt_at <= coalesce(o.test_clock_time, $1::timestamptz)
          and (d.lease_until is null or d.lease_until < $1::timestamptz)
          and ($2::uuid is null or d.organization_id = $2::uuid)
          and not (d.webhook_id = any($3::uuid[]))
     ), picked as (
       select d.id from webhook_delivery d join due on due.id = d.id
        where due.rank <= $4
          -- Again on the row locked: \`due\` read it in the statement's snapshot, and a dispatcher
          -- that claimed (or attempted) it since committed; only these conditions are re-checked
          -- on its latest version, so without them both would attempt it.
          and d.status = 'pending' and d.next_attempt_at <= due.clock_now
          and (d.lease_until is null or d.lease_until < $1::timestamptz)
        order by d.next_attempt_at, d.id
        limit $5
        for update of d skip locked
     )
     update webhook_delivery d set lease_until = $6
       from picked, webhook w, organization o
      where d.id = picked.id and w.id = d.webhook_id and o.id = d.organization_id
     returning d.id, d.organization_id, d.webhook_id, d.event_id, d.payload, d.step, w.endpoint,
               w.basic_auth_username, w.basic_auth_password, w.secret, o.test_clock_time`,
    [options.now, options.organizationId, [...options.busy], options.perWebhook, options.limit, options.leaseUntil],
  );
  return rows.map((row) => ({
    id: row.id,
    organizationId: row.organization_id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    payload: row.payload,
    step: row.step,
    endpoint: row.endpoint,
    basicAuthUsername: row.basic_auth_username,
    basicAuthPassword: row.basic_auth_password,
    secret: row.secret,
    testClockTime: row.test_clock_time === null ? null : new Date(row.test_clock_time),
  }));
}

/**
 * Whether the organization still has deliveries due on its clock: after a claim got none, they
 * are being attempted by another dispatcher (leased, or locked by its claim that has not
 * committed yet, which SKIP LOCKED passed over while the lease was not visible).
 */
export async function hasDueDeliveries(em: EntityManager, organizationId: string, now: Date): Promise<boolean> {
  const rows = await em.execute<{ found: number }[]>(
    `select 1 as found from webhook_delivery d join organization o on o.id = d.organization_id
      where d.organization_id = ? and d.status = 'pending'
        and d.next_attempt_at <= coalesce(o.test_clock_time, ?::timestamptz)
      limit 1`,
    [organizationId, now],
  );
  return rows.length > 0;
}

/** One finished attempt of a claimed delivery: its log row and the outcome for the delivery. */
export interface FinishedAttempt {
  delivery: ClaimedDelivery;
  attempt: AttemptView;
  outcome: AttemptOutcome;
}

/**
 * Attempts' log rows and their outcomes on the deliveries, releasing the leases: one statement
 * for all of them (a claim's attempts are recorded together), so all or none are written, in one
 * round trip.
 */
export async function recordAttempts(pool: pg.Pool, attempts: readonly FinishedAttempt[], now: Date): Promise<void> {
  if (attempts.length === 0) return;
  const column = <T>(pick: (attempt: FinishedAttempt) => T) => attempts.map(pick);
  await pool.query(
    `with attempt as (
       insert into webhook_attempt (id, organization_id, delivery_id, attempted_at, response_status, error, duration_ms)
       select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::int[], $6::text[], $7::int[])
     ),
     outcome as (
       select * from unnest($3::uuid[], $8::text[], $9::int[], $10::timestamptz[]) as o(id, status, step, next_attempt_at)
     )
     update webhook_delivery d set status = o.status, step = o.step, next_attempt_at = o.next_attempt_at,
            lease_until = null, updated_at = $11
       from outcome o
      where d.id = o.id`,
    [
      column(() => randomUUID()),
      column(({ delivery }) => delivery.organizationId),
      column(({ delivery }) => delivery.id),
      column(({ attempt }) => attempt.attempt_date),
      column(({ attempt }) => attempt.response_status),
      column(({ attempt }) => attempt.error),
      column(({ attempt }) => attempt.duration_ms),
      column(({ outcome }) => outcome.status),
      column(({ outcome }) => outcome.step),
      column(({ outcome }) => outcome.nextAttemptAt),
      now,
    ],
  );
}

/**
 * Resend: due now again. A delivery still pending keeps its schedule's step; a succeeded or
 * failed one starts a new schedule.
 */
export async function markForResend(em: EntityManager, row: WebhookDeliveryRow, dueAt: Date, now: Date): Promise<void> {
  if (row.status !== 'pending') row.step = 0;
  row.status = 'pending';
  row.next_attempt_at = dueAt;
  row.updated_at = now;
  await em.flush();
}

/** Gives claimed deliveries back without an attempt. */
export async function releaseLeases(pool: pg.Pool, ids: readonly string[]): Promise<void> {
  await pool.query('update webhook_delivery set lease_until = null where id = any($1::uuid[])', [[...ids]]);
}
