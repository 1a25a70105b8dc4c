import { randomUUID } from 'node:crypto';
import { AppError, StatusCode } from '@billing/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLogEntry, CONFLICT_RETRY, ConstraintViolationError, inTransaction, recordAudit } from '../src/index.js';
import { Widget, WidgetPart } from './support/entities.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('db_tx');
});
afterAll(async () => db?.dispose());

function createWidget(code: string, quantity = 0): Promise<string> {
  return inTransaction(db.orm, async (em) => {
    const id = randomUUID();
    em.create(Widget, { id, code, quantity });
    return id;
  });
}

/** Resolves once `count` callers are waiting, so two transactions provably overlap. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return () => {
    arrived += 1;
    if (arrived === count) release();
    return released;
  };
}

describe('inTransaction', () => {
  it('commits the unit of work, audit row included', async () => {
    const id = await inTransaction(db.orm, async (em) => {
      const widgetId = randomUUID();
      em.create(Widget, { id: widgetId, code: 'COMMITTED', quantity: 3 });
      recordAudit(em, {
        organizationId: 'org-1',
        action: 'widget.created',
        objectType: 'widget',
        objectId: widgetId,
        occurredAt: new Date('2026-01-02T03:04:05Z'),
        clientSystem: 'crm',
        externalUser: 'jane',
        requestId: 'req-1',
        details: { code: 'COMMITTED' },
      });
      return widgetId;
    });

    const em = db.orm.em.fork();
    expect(await em.findOneOrFail(Widget, id)).toMatchObject({ code: 'COMMITTED', quantity: 3 });
    const audit = await em.findOneOrFail(AuditLogEntry, { objectId: id });
    expect(audit).toMatchObject({
      organizationId: 'org-1',
      apiUserId: null,
      clientSystem: 'crm',
      externalUser: 'jane',
      requestId: 'req-1',
      action: 'widget.created',
      details: { code: 'COMMITTED' },
    });
    expect(audit.occurredAt.toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('rolls everything back when the work fails, and lets the error through unchanged', async () => {
    const failure = AppError.refused('NOT_TODAY', 'Refused.');
    const objectId = randomUUID();
    await expect(
      inTransaction(db.orm, async (em) => {
        em.create(Widget, { id: objectId, code: 'ROLLED_BACK', quantity: 1 });
        recordAudit(em, {
          organizationId: 'org-1',
          action: 'x',
          objectType: 'widget',
          objectId,
          occurredAt: new Date(),
        });
        await em.flush();
        throw failure;
      }),
    ).rejects.toBe(failure);

    const em = db.orm.em.fork();
    expect(await em.count(Widget, { code: 'ROLLED_BACK' })).toBe(0);
    expect(await em.count(AuditLogEntry, { objectId })).toBe(0);
  });

  it('turns a unique violation into ALREADY_EXISTS naming the constraint', async () => {
    await createWidget('DUPLICATE');
    const error = await createWidget('DUPLICATE').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConstraintViolationError);
    expect(error).toMatchObject({
      code: StatusCode.ALREADY_EXISTS,
      reason: 'ALREADY_EXISTS',
      constraint: 'widget_code_unique',
      table: 'widget',
    });
  });

  it('turns a foreign key violation into FAILED_PRECONDITION REFERENCED', async () => {
    const error = await inTransaction(db.orm, async (em) => {
      em.create(WidgetPart, { id: randomUUID(), widget: em.getReference(Widget, randomUUID()) });
    }).catch((e: unknown) => e);

    expect(error).toMatchObject({
      code: StatusCode.FAILED_PRECONDITION,
      reason: 'REFERENCED',
      constraint: 'widget_part_widget_id_foreign',
    });
  });

  it('turns malformed and out-of-range values into INVALID_ARGUMENT', async () => {
    const malformed = await inTransaction(db.orm, (em) => em.execute('select ?::uuid', ['not-a-uuid'])).catch(
      (e: unknown) => e,
    );
    const outOfRange = await inTransaction(db.orm, async (em) => {
      em.create(Widget, { id: randomUUID(), code: 'HUGE', quantity: 2 ** 40 });
    }).catch((e: unknown) => e);

    expect(malformed).toMatchObject({ code: StatusCode.INVALID_ARGUMENT, reason: 'INVALID_VALUE' });
    expect(outOfRange).toMatchObject({ code: StatusCode.INVALID_ARGUMENT, reason: 'INVALID_VALUE' });
  });

  it('re-runs the whole unit of work after a serialization failure', async () => {
    const id = await createWidget('CONTENDED', 0);
    const bothRead = barrier(2);
    let attempts = 0;
    const increment = () =>
      inTransaction(
        db.orm,
        async (em) => {
          attempts += 1;
          const widget = await em.findOneOrFail(Widget, id);
          if (attempts <= 2) await bothRead();
          widget.quantity += 1;
        },
        { isolationLevel: 'repeatable read' },
      );

    await Promise.all([increment(), increment()]);

    expect(attempts).toBe(3);
    expect((await db.orm.em.fork().findOneOrFail(Widget, id)).quantity).toBe(2);
  });

  it('gives up after maxAttempts with a retryable ABORTED error', async () => {
    const id = await createWidget('CONTENDED_ONCE', 0);
    const bothRead = barrier(2);
    const increment = () =>
      inTransaction(
        db.orm,
        async (em) => {
          const widget = await em.findOneOrFail(Widget, id);
          await bothRead();
          widget.quantity += 1;
        },
        { maxAttempts: 1, isolationLevel: 'repeatable read' },
      );

    const results = await Promise.allSettled([increment(), increment()]);

    const rejected = results.filter((result) => result.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect((rejected[0] as PromiseRejectedResult).reason).toMatchObject({
      code: StatusCode.ABORTED,
      reason: CONFLICT_RETRY,
    });
    expect((await db.orm.em.fork().findOneOrFail(Widget, id)).quantity).toBe(1);
  });
});
