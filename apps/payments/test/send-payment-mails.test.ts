/**
 * The mail sender's batch (sendPaymentMails), against a real, migrated throwaway schema: each
 * waiting mail is sent once, oldest first, to the recipients with its flag, in the account's
 * language; the batch's accounts are asked for with one call per organization, each organization
 * once; a mail whose delivery fails counts an attempt and is sent by a later pass; sent mails are
 * never sent again; mails out of attempts are left alone.
 */
import { randomUUID } from 'node:crypto';
import { TestClock } from '@billing/clock';
import type { MailTransport, OutgoingMail } from '@billing/mail';
import { createLogger } from '@billing/observability';
import type { TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPaymentMail } from '../src/db/charge-store.js';
import { PaymentMailEntity } from '../src/db/entities/payment-mail.entity.js';
import type { AccountFacts, Directory } from '../src/domain/directory.js';
import type { PaymentMailFacts } from '../src/domain/payment-mail.js';
import type { PaymentsDeps } from '../src/use-cases/deps.js';
import { sendPaymentMails } from '../src/use-cases/mail/send-payment-mails.js';
import { openPaymentsSchema } from './support/payments-schema.js';

let database: TestSchema;
let orm: MikroORM;

beforeAll(async () => {
  ({ database, orm } = await openPaymentsSchema('payments_mails'));
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

const sentAt = new Date('2026-03-01T10:00:00.000Z');

function confirmation(invoiceNumber: string): PaymentMailFacts {
  return {
    kind: 'payment_confirmation',
    invoice_number: invoiceNumber,
    amount: '1234.50',
    currency: 'DKK',
    brand: 'visa',
    last4: '4242',
    paid_at: '2026-02-28T23:30:00.000Z',
  };
}

const declined: PaymentMailFacts = {
  kind: 'payment_declined',
  invoice_number: '9',
  amount: '10.00',
  currency: 'EUR',
  brand: 'visa',
  last4: '0002',
  attempted_at: '2026-02-28T10:00:00.000Z',
  next_attempt_at: null,
};

function account(uuid: string, language: string, emails: Array<[string, 'confirmation' | 'card' | 'both']>) {
  return {
    uuid,
    code: `code-${uuid.slice(0, 4)}`,
    name: 'Kunde',
    language,
    recipients: emails.map(([email, flags]) => ({
      name: email.split('@')[0]!,
      email,
      receivePaymentConfirmation: flags !== 'card',
      receivePaymentCardNotifications: flags !== 'confirmation',
    })),
  } satisfies AccountFacts;
}

/** A directory of fixed accounts per organization that counts the calls made to it. */
function countingDirectory(accounts: Map<string, Map<string, AccountFacts>>) {
  const calls = { account: 0, accounts: [] as Array<{ organizationId: string; ids: string[] }>, organization: 0 };
  const directory: Directory = {
    organization: async (context) => {
      calls.organization += 1;
      return {
        timeZone: 'Europe/Copenhagen',
        testClockTime: null,
        dunningDays: [1, 3, 7],
        features: [],
        name: `Org ${context.organizationId?.slice(0, 4)}`,
        email: 'billing@org.example',
      };
    },
    account: async (context, accountId) => {
      calls.account += 1;
      return accounts.get(context.organizationId!)?.get(accountId) ?? null;
    },
    accounts: async (context, accountIds) => {
      calls.accounts.push({ organizationId: context.organizationId!, ids: [...accountIds] });
      const found = new Map<string, AccountFacts>();
      for (const id of accountIds) {
        const facts = accounts.get(context.organizationId!)?.get(id);
        if (facts) found.set(id, facts);
      }
      return found;
    },
    gatewayCredentials: async () => null,
    close: () => undefined,
  };
  return { directory, calls };
}

/** A transport that records what it delivers and fails the addresses in `failing`. */
function recordingTransport(failing: Set<string>) {
  const delivered: Array<{ name: string; mail: OutgoingMail }> = [];
  const transport: MailTransport = {
    async deliver(mail, name) {
      const bad = mail.to.find((to) => failing.has(to.address));
      if (bad) throw new Error(`550 mailbox unavailable: ${bad.address}`);
      delivered.push({ name, mail });
      return mail.to.map((to) => to.address);
    },
  };
  return { transport, delivered };
}

async function mailRow(id: string) {
  const row = await orm.em.fork().findOneOrFail(PaymentMailEntity, { id });
  return { sent_to: row.sent_to, sent_at: row.sent_at, attempts: row.attempts, last_error: row.last_error };
}

describe('sendPaymentMails', () => {
  it('sends a batch once each, oldest first, with one accounts call per organization', async () => {
    const [orgA, orgB] = [randomUUID(), randomUUID()];
    const [danish, english, silent, flaky, gone] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    const { directory, calls } = countingDirectory(
      new Map([
        [
          orgA,
          new Map([
            [
              danish,
              account(danish, 'da-DK', [
                ['betaler@a.example', 'confirmation'],
                ['kort@a.example', 'card'],
              ]),
            ],
            [silent, account(silent, 'en', [['kort@s.example', 'card']])],
            [flaky, account(flaky, 'en', [['bounce@f.example', 'both']])],
          ]),
        ],
        [
          orgB,
          new Map([
            [
              english,
              account(english, 'en', [
                ['Pay@B.example', 'both'],
                ['pay@b.example', 'both'],
              ]),
            ],
          ]),
        ],
      ]),
    );
    const failing = new Set(['bounce@f.example']);
    const { transport, delivered } = recordingTransport(failing);
    const clock = new TestClock(sentAt);
    const deps = {
      orm,
      clock,
      logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
      directory,
    } as unknown as PaymentsDeps;
    const written = async (organizationId: string, accountId: string, facts: PaymentMailFacts, minute: number) => {
      const id = randomUUID();
      await insertPaymentMail(orm.em.fork(), {
        id,
        organizationId,
        accountId,
        subjectId: randomUUID(),
        facts,
        now: new Date(Date.UTC(2026, 2, 1, 9, minute)),
      });
      return id;
    };
    // Written out of order: the sender goes by created_at.
    const second = await written(orgB, english, confirmation('2'), 2);
    const first = await written(orgA, danish, confirmation('1'), 1);
    const noFlag = await written(orgA, silent, confirmation('3'), 3);
    const bounced = await written(orgA, flaky, declined, 4);
    const unknown = await written(orgA, gone, confirmation('5'), 5);
    const third = await written(orgA, danish, declined, 6);
    const exhausted = await written(orgB, english, confirmation('7'), 7);
    await orm.em.fork().nativeUpdate(PaymentMailEntity, { id: exhausted }, { attempts: 10 });

    const sender = { transport, from: 'billing@example.invalid' };
    expect(await sendPaymentMails(deps, sender)).toBe(6);

    expect(delivered.map(({ name }) => name)).toEqual([
      `payment-confirmation-${first}`,
      `payment-confirmation-${second}`,
      `payment-declined-${third}`,
    ]);
    expect(delivered[0]!.mail).toEqual({
      from: { name: `Org ${orgA.slice(0, 4)}`, address: 'billing@example.invalid' },
      replyTo: 'billing@org.example',
      to: [{ name: 'betaler', address: 'betaler@a.example' }],
      subject: 'Betaling modtaget for faktura 1',
      text:
        'Hej,\n\nVi har modtaget din betaling på 1.234,50 DKK for faktura 1, trukket på dit visa-kort, der slutter på 4242, den 2026-03-01.\n\nTak.\nOrg ' +
        `${orgA.slice(0, 4)}\n`,
      messageId: `<${first}@example.invalid>`,
      date: sentAt,
    });
    // One address once, whatever its case.
    expect(delivered[1]!.mail.to).toEqual([{ name: 'Pay', address: 'Pay@B.example' }]);
    expect(delivered[2]!.mail.to).toEqual([{ name: 'kort', address: 'kort@a.example' }]);

    // One accounts call per organization, for the accounts of its mails; each organization asked once.
    expect(calls.account).toBe(0);
    expect(calls.accounts).toHaveLength(2);
    expect(new Set(calls.accounts.map((call) => call.organizationId))).toEqual(new Set([orgA, orgB]));
    expect(new Set(calls.accounts.find((call) => call.organizationId === orgA)!.ids)).toEqual(
      new Set([danish, silent, flaky, gone]),
    );
    expect(calls.organization).toBe(2);

    expect(await mailRow(first)).toEqual({
      sent_to: ['betaler@a.example'],
      sent_at: sentAt,
      attempts: 0,
      last_error: null,
    });
    expect(await mailRow(second)).toEqual({
      sent_to: ['Pay@B.example'],
      sent_at: sentAt,
      attempts: 0,
      last_error: null,
    });
    expect(await mailRow(third)).toEqual({
      sent_to: ['kort@a.example'],
      sent_at: sentAt,
      attempts: 0,
      last_error: null,
    });
    // No recipient with the flag, or no such account: nothing to send, done.
    expect(await mailRow(noFlag)).toEqual({ sent_to: [], sent_at: sentAt, attempts: 0, last_error: null });
    expect(await mailRow(unknown)).toEqual({ sent_to: [], sent_at: sentAt, attempts: 0, last_error: null });
    expect(await mailRow(bounced)).toEqual({
      sent_to: null,
      sent_at: null,
      attempts: 1,
      last_error: '550 mailbox unavailable: bounce@f.example',
    });
    expect(await mailRow(exhausted)).toEqual({ sent_to: null, sent_at: null, attempts: 10, last_error: null });

    // The next pass tries the failed mail again, and only it; once delivered, nothing is left.
    failing.clear();
    const later = new Date(sentAt.getTime() + 1_000);
    clock.set(later);
    expect(await sendPaymentMails(deps, sender)).toBe(1);
    expect(delivered.map(({ name }) => name).slice(3)).toEqual([`payment-declined-${bounced}`]);
    expect(await mailRow(bounced)).toEqual({
      sent_to: ['bounce@f.example'],
      sent_at: later,
      attempts: 1,
      last_error: '550 mailbox unavailable: bounce@f.example',
    });
    expect(await sendPaymentMails(deps, sender)).toBe(0);
    expect(delivered).toHaveLength(4);
  });

  it('leaves the mails another transaction holds to it, and sends at most `limit` a pass', async () => {
    const organizationId = randomUUID();
    const accountId = randomUUID();
    const { directory } = countingDirectory(
      new Map([[organizationId, new Map([[accountId, account(accountId, 'en', [['a@x.example', 'both']])]])]]),
    );
    const { transport, delivered } = recordingTransport(new Set());
    const deps = {
      orm,
      clock: new TestClock(sentAt),
      logger: createLogger('test', 'silent'),
      directory,
    } as unknown as PaymentsDeps;
    const ids: string[] = [];
    for (let minute = 0; minute < 3; minute++) {
      const id = randomUUID();
      ids.push(id);
      await insertPaymentMail(orm.em.fork(), {
        id,
        organizationId,
        accountId,
        subjectId: randomUUID(),
        facts: confirmation(String(minute)),
        now: new Date(Date.UTC(2026, 3, 1, 9, minute)),
      });
    }
    const sender = { transport, from: 'billing@example.invalid' };
    const holder = orm.em.fork();
    await holder.begin();
    try {
      await holder.execute('select id from payment_mail where id = ? for update', [ids[0]]);
      expect(await sendPaymentMails(deps, sender, 1)).toBe(1);
      expect(delivered.map(({ name }) => name)).toEqual([`payment-confirmation-${ids[1]}`]);
    } finally {
      await holder.rollback();
    }
    expect(await sendPaymentMails(deps, sender)).toBe(2);
    expect(delivered.map(({ name }) => name)).toEqual(
      [ids[1], ids[0], ids[2]].map((id) => `payment-confirmation-${id}`),
    );
  });
});
