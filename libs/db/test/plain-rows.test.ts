/**
 * plainRows: the rows of a raw `select *` with the values the ORM hydrates (column names mapped to
 * properties, a timestamptz as its Date, JSON as its value, nulls as null), equal to what `em.map`
 * makes of them, and no entity left in the unit of work.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLogEntry } from '../src/audit/audit-log-entry.entity.js';
import { type IAuditLogEntry, inTransaction, plainRows } from '../src/index.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('db_plain_rows');
});
afterAll(async () => db?.dispose());

describe('plainRows', () => {
  it('gives each row the values the ORM hydrates, without making entities', async () => {
    const organizationId = randomUUID();
    const full = randomUUID();
    const sparse = randomUUID();
    const occurredAt = new Date('2026-03-01T09:00:05.123Z');
    await inTransaction(db.orm, async (em) => {
      em.create(AuditLogEntry, {
        id: full,
        organizationId,
        apiUserId: 'user-1',
        clientSystem: 'erp',
        externalUser: 'jane',
        requestId: 'req-1',
        action: 'update',
        objectType: 'account',
        objectId: 'A-1',
        occurredAt,
        details: { changed: ['name'], nested: { amount: '10.50' }, count: 2 },
      });
      em.create(AuditLogEntry, {
        id: sparse,
        organizationId,
        action: 'create',
        objectType: 'account',
        objectId: 'A-2',
        occurredAt,
      });
    });

    const em = db.orm.em.fork();
    const raw = await em.execute<Array<Record<string, unknown>>>(
      'select * from audit_log where organization_id = ? order by object_id',
      [organizationId],
    );
    const rows = plainRows<IAuditLogEntry>(em, AuditLogEntry, raw);

    expect(rows).toEqual([
      {
        id: full,
        organizationId,
        apiUserId: 'user-1',
        clientSystem: 'erp',
        externalUser: 'jane',
        requestId: 'req-1',
        action: 'update',
        objectType: 'account',
        objectId: 'A-1',
        occurredAt,
        details: { changed: ['name'], nested: { amount: '10.50' }, count: 2 },
      },
      {
        id: sparse,
        organizationId,
        apiUserId: null,
        clientSystem: null,
        externalUser: null,
        requestId: null,
        action: 'create',
        objectType: 'account',
        objectId: 'A-2',
        occurredAt,
        details: null,
      },
    ]);
    expect(rows[0]!.occurredAt).toBeInstanceOf(Date);
    // Plain objects: nothing in the identity map, nothing for a flush to compare.
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(em.getUnitOfWork().getIdentityMap().values()).toHaveLength(0);

    // The same values as the ORM's own mapping of the rows (which makes managed entities).
    const mapped = raw.map((row) => em.map(AuditLogEntry, row));
    expect(rows).toEqual(mapped.map((entity) => ({ ...entity })));
  });

  it('maps no rows to none', async () => {
    expect(plainRows(db.orm.em.fork(), AuditLogEntry, [])).toEqual([]);
  });
});
