/**
 * Accounts named by id (invoicing's buyers of a batch, the accounts announced invoices belong to,
 * resellers, recipients' accounts) are looked up by key, with or without planner statistics, for 5
 * ids as for 500 (a consumer's batch): on an organization of 100,000 accounts each statement reads
 * a few index entries per id, never the whole organization, which the planner read for
 * `organization_id = ? and id in (…)` without statistics (its (organization_id, created_at) index)
 * and, at 500 ids, for a join of the ids with the table (a sequential scan). Another
 * organization's account and an unknown id are left out. What each statement read is counted with
 * Postgres' per-transaction statistics (entriesReadBy), whatever plan it took.
 */
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { entriesReadInOrm, TestClock } from '@billing/testing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAccountsByIds, keyShareAccounts } from '../src/db/accounts-by-id.js';
import { type AccountsSchema, openAccountsSchema } from './support/accounts-schema.js';

let db: AccountsSchema;
const organizationId = randomUUID();
const otherOrganizationId = randomUUID();
const ACCOUNTS = 100_000;
const KEYS = 500;

/** The ids of accounts 1..KEYS of the organization (account-1 first), and one of another organization. */
let firstIds: string[];
let othersAccount: string;

const run = <T>(work: (em: EntityManager) => Promise<T>) => inTransaction(db.orm, work);

beforeAll(async () => {
  db = await openAccountsSchema(new TestClock('2026-03-01T09:00:00Z'));
  await run(async (em) => {
    await em.execute('alter table account set (autovacuum_enabled = false)');
    const insert = (organization: string, count: number) =>
      em.execute<Array<{ id: string }>>(
        `insert into account (id, organization_id, code, ean_invoicing, einvoicing_identifier_schema, language,
           legal_address, legal_zipcode, legal_city, legal_country, legal_vat_number, billing_same_as_legal,
           billing_address, billing_zipcode, billing_city, billing_country, update_from_registers,
           is_getting_reminders, custom_fields, industry, is_archived, created_at, updated_at)
         select gen_random_uuid(), ?, 'account-' || g, false, '', 'da', 'Vej 1', '2100', 'København', 'DK', '', true,
           '', '', '', '', false, false, '{}', '', false, now(), now()
           from generate_series(1, ?) g
         returning id, code`,
        [organization, count],
      );
    const rows = (await insert(organizationId, ACCOUNTS)) as Array<{ id: string; code: string }>;
    const idOf = new Map(rows.map((row) => [row.code, row.id]));
    firstIds = Array.from({ length: KEYS }, (_, i) => idOf.get(`account-${i + 1}`)!);
    [{ id: othersAccount }] = (await insert(otherOrganizationId, 1)) as [{ id: string }];
  });
}, 120_000);

afterAll(async () => {
  await db?.close();
});

/** What `read` answers, and the entries each table gave it, in a transaction rolled back after. */
const measured = <T>(read: (em: EntityManager) => Promise<T>) => entriesReadInOrm(db.orm, read);

describe.each([
  [5, false],
  [KEYS, false],
  [5, true],
  [KEYS, true],
])('accounts by %i ids (planner statistics: %s)', (keys, analyzed) => {
  const ids = () => firstIds.slice(0, keys);
  const codes = Array.from({ length: keys }, (_, i) => `account-${i + 1}`).sort();
  /** A few entries per id of the primary key: nowhere near the organization's 100,000. */
  const bound = 5 * keys + 50;

  beforeAll(async () => {
    if (analyzed) await run((em) => em.execute('analyze account'));
  });

  it("findAccountsByIds: the organization's accounts, each once, not another organization's nor an unknown one", async () => {
    const { answer, entries } = await measured((em) =>
      findAccountsByIds(em, organizationId, [...ids(), othersAccount, randomUUID(), ids()[0]!]),
    );
    expect(answer.map((row) => row.id).sort()).toEqual([...ids()].sort());
    expect(answer.map((row) => row.code).sort()).toEqual(codes);
    expect(entries.account).toBeGreaterThan(0);
    expect(entries.account).toBeLessThanOrEqual(bound);
  });

  it("keyShareAccounts: the organization's accounts, not another organization's nor an unknown one", async () => {
    const { answer, entries } = await measured((em) =>
      keyShareAccounts(em, organizationId, [...ids(), othersAccount, randomUUID()]),
    );
    expect([...answer].sort()).toEqual([...ids()].sort());
    expect(entries.account).toBeGreaterThan(0);
    expect(entries.account).toBeLessThanOrEqual(bound);
  });
});
