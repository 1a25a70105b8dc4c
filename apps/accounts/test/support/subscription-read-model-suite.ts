/**
 * The subscription read model as its users see it, whatever bus feeds it: real SubscriptionChanged
 * envelopes published on the bus, then the account list filters, the delete rule and the stored
 * state read back through the accounts use cases. Run once on JetStream and once on the
 * in-process bus of `npm start`.
 */
import { randomUUID } from 'node:crypto';
import { StatusCode } from '@billing/errors';
import { type EventEnvelope, encodeEnvelope, InboxMessage } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSubscriptionState } from '../../src/db/account-subscription-store.js';
import type { AccountListFilter } from '../../src/domain/account-list.js';
import { createAccount } from '../../src/use-cases/create-account.js';
import { deleteAccount } from '../../src/use-cases/delete-account.js';
import type { AccountsDeps } from '../../src/use-cases/deps.js';
import { createOrganization } from '../../src/use-cases/organizations.js';
import { getAccount, listAccounts } from '../../src/use-cases/read-accounts.js';
import { draftLineChanged } from './draft-line-events.js';
import { type SubscriptionEventInput, subscriptionChanged } from './subscription-events.js';

/** A first delete call: nothing confirmed by invoicing yet. */
const deleteRequest = (code: string) => ({
  code,
  existingInvoices: [],
  absentInvoices: [],
  invoicedCharges: [],
  uninvoicedCharges: [],
  lastRound: false,
});

export interface ReadModelHarness {
  deps: AccountsDeps;
  /** The durable consumer's name: its inbox rows show which events were handled. */
  consumer: string;
  /** Publishes on the subject the consumer reads, with `messageId` as the bus's dedupe key. */
  publish(data: Uint8Array, messageId: string): Promise<void>;
  /** The draft line consumer's name, and publishing on `<invoicing>.draft_invoice_line.<eventType>`. */
  draftLineConsumer: string;
  publishDraftLine(eventType: string, data: Uint8Array, messageId: string): Promise<void>;
  stop(): Promise<void>;
}

export function describeSubscriptionReadModel(bus: string, start: () => Promise<ReadModelHarness>): void {
  let harness: ReadModelHarness;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => harness?.stop());

  const handled = async (event: EventEnvelope) =>
    (await harness.deps.orm.em
      .fork()
      .count(InboxMessage, { consumer: harness.consumer, messageId: event.event_id })) === 1;

  /** Publishes each event and waits until the consumer committed it (applied or ignored). */
  const deliver = async (...events: EventEnvelope[]) => {
    for (const event of events) {
      await harness.publish(encodeEnvelope(event), event.event_id);
      await waitFor(() => handled(event), { timeoutMs: 10_000, description: `event ${event.event_id} handled` });
    }
  };

  const newOrganization = async () => {
    const { organization } = await createOrganization(harness.deps, { name: 'Read model test' });
    const context: RequestContext = { requestId: randomUUID(), organizationId: organization.id };
    const event = (input: Omit<SubscriptionEventInput, 'organizationId'>) =>
      subscriptionChanged({ organizationId: organization.id, ...input });
    return { organizationId: organization.id, context, event };
  };

  const newAccount = async (context: RequestContext, code: string): Promise<string> => {
    const values = { code, legal_address: 'Vesterbrogade 1', legal_zipcode: '1620', legal_city: 'København V' };
    const write = {
      values: { ...values, legal_country: 'DK' },
      present: new Set([...Object.keys(values), 'legal_country']),
    };
    return (await createAccount(harness.deps, context, write)).uuid;
  };

  const codes = async (context: RequestContext, filter: AccountListFilter) => {
    const page = await listAccounts(harness.deps, context, filter, { page: 1, pageSize: 100, ordering: 'code' });
    return page.accounts.map((account) => account.code);
  };

  const stateOf = async (organizationId: string, subscription: string) => {
    const row = await findSubscriptionState(harness.deps.orm.em.fork(), organizationId, subscription);
    return (
      row && { status: row.status, version: row.version, last_modified_date: row.last_modified_date.toISOString() }
    );
  };

  describe(`subscription read model on the ${bus}`, () => {
    it('answers the subscription filters of the account list', async () => {
      const { context, event } = await newOrganization();
      const [a, b, c] = [
        await newAccount(context, 'a'),
        await newAccount(context, 'b'),
        await newAccount(context, 'c'),
      ];
      await newAccount(context, 'd-without-subscriptions');
      const at = '2026-02-01T10:00:00Z';
      await deliver(
        event({
          subscription: randomUUID(),
          account: a,
          status: 'active',
          collectionMethod: 'invoice',
          lastModified: at,
          version: 1,
        }),
        event({
          subscription: randomUUID(),
          account: a,
          status: 'expired',
          collectionMethod: 'payment_card',
          lastModified: at,
          version: 1,
        }),
        event({
          subscription: randomUUID(),
          account: b,
          status: 'not_renewing',
          collectionMethod: 'payment_card',
          lastModified: at,
          version: 1,
        }),
        event({
          subscription: randomUUID(),
          account: c,
          status: 'expired',
          collectionMethod: 'direct_debit',
          lastModified: at,
          version: 1,
        }),
        event({
          subscription: randomUUID(),
          account: c,
          status: 'pending_manual_renewal',
          collectionMethod: 'invoice',
          lastModified: at,
          version: 1,
        }),
      );

      expect(await codes(context, {})).toEqual(['a', 'b', 'c', 'd-without-subscriptions']);
      expect(await codes(context, { subscription_status: 'active' })).toEqual(['a']);
      expect(await codes(context, { subscription_status: 'expired' })).toEqual(['a', 'c']);
      expect(await codes(context, { subscription_status: 'not_renewing' })).toEqual(['b']);
      expect(await codes(context, { subscription_status: 'pending_manual_renewal' })).toEqual(['c']);
      expect(await codes(context, { subscription_status: 'scheduled' })).toEqual([]);
      // Expired subscriptions do not count: a's card subscription and c's direct debit one are over.
      expect(await codes(context, { subscription_collection_method: 'invoice' })).toEqual(['a', 'c']);
      expect(await codes(context, { subscription_collection_method: 'payment_card' })).toEqual(['b']);
      expect(await codes(context, { subscription_collection_method: 'direct_debit' })).toEqual([]);
      expect(await codes(context, { subscription_set_to_expire: true })).toEqual(['b']);
      expect(await codes(context, { subscription_set_to_expire: false })).toEqual([
        'a',
        'c',
        'd-without-subscriptions',
      ]);
      expect(
        await codes(context, { subscription_status: 'expired', subscription_collection_method: 'invoice' }),
      ).toEqual(['a', 'c']);
      expect(
        await codes(context, { subscription_status: 'expired', subscription_set_to_expire: false, code: 'c' }),
      ).toEqual(['c']);
    });

    it('refuses to delete an account while it has a non-expired subscription', async () => {
      const { context, event } = await newOrganization();
      const account = await newAccount(context, 'subscribed');
      const subscription = randomUUID();
      const refusal = {
        name: 'AppError',
        code: StatusCode.FAILED_PRECONDITION,
        reason: 'ACCOUNT_HAS_SUBSCRIPTIONS',
        message: 'An account with non-expired subscriptions cannot be deleted.',
      };

      for (const [version, status, lastModified] of [
        [1, 'scheduled', '2026-02-01T10:00:00Z'],
        [2, 'active', '2026-02-02T10:00:00Z'],
        [3, 'not_renewing', '2026-02-03T10:00:00Z'],
        [4, 'pending_manual_renewal', '2026-02-04T10:00:00Z'],
      ] as const) {
        await deliver(event({ subscription, account, status, lastModified, version }));
        await expect(deleteAccount(harness.deps, context, deleteRequest('subscribed')), status).rejects.toMatchObject(
          refusal,
        );
      }
      expect(await codes(context, { code: 'subscribed' })).toEqual(['subscribed']);

      await deliver(
        event({ subscription, account, status: 'expired', lastModified: '2026-02-05T10:00:00Z', version: 5 }),
      );
      expect(await deleteAccount(harness.deps, context, deleteRequest('subscribed'))).toEqual({ deleted: true });
      expect(await codes(context, { code: 'subscribed' })).toEqual([]);
    });

    it('refuses to delete while a charge the expiring event named is not invoiced, and deletes once it is', async () => {
      const { context, event } = await newOrganization();
      const account = await newAccount(context, 'leaving');
      const subscription = randomUUID();
      const [renewal, last] = [randomUUID(), randomUUID()].sort() as [string, string];
      await deliver(
        event({ subscription, account, status: 'expired', lastModified: '2026-02-05T10:00:00Z', version: 2 }),
        // An older state naming the charges counts too: a named charge stays until confirmed invoiced.
        event({
          subscription,
          account,
          status: 'expired',
          lastModified: '2026-02-04T10:00:00Z',
          version: 1,
          charges: [last, renewal],
        }),
      );
      expect(await deleteAccount(harness.deps, context, deleteRequest('leaving'))).toEqual({
        deleted: false,
        unconfirmedInvoices: [],
        unconfirmedCharges: [renewal, last],
      });
      const onItsWay = { ...deleteRequest('leaving'), invoicedCharges: [renewal], uninvoicedCharges: [last] };
      await expect(deleteAccount(harness.deps, context, onItsWay)).rejects.toMatchObject({
        code: StatusCode.FAILED_PRECONDITION,
        reason: 'ACCOUNT_HAS_INVOICES',
        message: 'An account with invoices cannot be deleted.',
      });
      // The refusal forgot nothing: both are asked about again.
      expect(await deleteAccount(harness.deps, context, deleteRequest('leaving'))).toEqual({
        deleted: false,
        unconfirmedInvoices: [],
        unconfirmedCharges: [renewal, last],
      });
      const invoiced = { ...deleteRequest('leaving'), invoicedCharges: [renewal, last] };
      expect(await deleteAccount(harness.deps, context, invoiced)).toEqual({ deleted: true });
      expect(await codes(context, { code: 'leaving' })).toEqual([]);
    });

    it('ignores a state of an older version, so late events never move it backwards', async () => {
      const { organizationId, context, event } = await newOrganization();
      const account = await newAccount(context, 'late');
      const subscription = randomUUID();

      // Version, not time, orders the states: the late one even claims a later modification.
      await deliver(
        event({ subscription, account, status: 'not_renewing', lastModified: '2026-03-02T00:00:00Z', version: 3 }),
        event({ subscription, account, status: 'active', lastModified: '2026-03-05T00:00:00Z', version: 2 }),
      );
      expect(await stateOf(organizationId, subscription)).toEqual({
        status: 'not_renewing',
        version: 3,
        last_modified_date: '2026-03-02T00:00:00.000Z',
      });
      expect(await codes(context, { subscription_status: 'active' })).toEqual([]);
      expect(await codes(context, { subscription_set_to_expire: true })).toEqual(['late']);

      // Reactivated later: the next version replaces the stored one.
      await deliver(
        event({ subscription, account, status: 'active', lastModified: '2026-03-03T00:00:00Z', version: 4 }),
      );
      expect(await stateOf(organizationId, subscription)).toEqual({
        status: 'active',
        version: 4,
        last_modified_date: '2026-03-03T00:00:00.000Z',
      });
      expect(await codes(context, { subscription_set_to_expire: true })).toEqual([]);
      expect(await codes(context, { subscription_set_to_expire: false })).toEqual(['late']);
    });

    it('ignores another state of the same version, and a redelivered event has no effect', async () => {
      const { organizationId, context, event } = await newOrganization();
      const account = await newAccount(context, 'same-version');
      const subscription = randomUUID();
      const instant = '2026-04-01T12:00:00Z';
      const created = event({ subscription, account, status: 'active', lastModified: instant, version: 1 });
      const cancelled = event({
        subscription,
        account,
        status: 'not_renewing',
        lastModified: instant,
        change: 'cancellation_scheduled',
        version: 2,
      });

      await deliver(created, event({ subscription, account, status: 'expired', lastModified: instant, version: 1 }));
      expect(await stateOf(organizationId, subscription)).toEqual({
        status: 'active',
        version: 1,
        last_modified_date: '2026-04-01T12:00:00.000Z',
      });

      await deliver(cancelled);
      // The first event again under a new bus message id (a republish after the duplicate window).
      // A later event on another subscription, handled after it in stream order, shows it went
      // through the consumer.
      await harness.publish(encodeEnvelope(created), randomUUID());
      await deliver(
        event({ subscription: randomUUID(), account, status: 'expired', lastModified: instant, version: 1 }),
      );
      expect(await stateOf(organizationId, subscription)).toEqual({
        status: 'not_renewing',
        version: 2,
        last_modified_date: '2026-04-01T12:00:00.000Z',
      });
      expect(await codes(context, { subscription_status: 'active' })).toEqual([]);
    });

    it("never lets another organization's event take a subscription over", async () => {
      const owner = await newOrganization();
      const intruder = await newOrganization();
      const account = await newAccount(owner.context, 'owned');
      const subscription = randomUUID();

      await deliver(
        owner.event({ subscription, account, status: 'active', lastModified: '2026-05-01T00:00:00Z', version: 1 }),
      );
      await deliver(
        intruder.event({ subscription, account, status: 'expired', lastModified: '2026-05-02T00:00:00Z', version: 2 }),
      );

      expect(await stateOf(owner.organizationId, subscription)).toEqual({
        status: 'active',
        version: 1,
        last_modified_date: '2026-05-01T00:00:00.000Z',
      });
      expect(await stateOf(intruder.organizationId, subscription)).toBeNull();
      expect(await codes(owner.context, { subscription_status: 'active' })).toEqual(['owned']);
    });

    it('keeps the draft lines not invoiced yet from invoicing.draft_invoice_line.*', async () => {
      const { organizationId, context } = await newOrganization();
      const account = await newAccount(context, 'with-lines');
      const line = randomUUID();
      const lines = async () => (await getAccount(harness.deps, context, 'with-lines')).read_model.draft_lines.length;

      for (const [eventType, version, expected] of [
        ['created', 1, 1],
        ['updated', 2, 1],
        ['invoiced', 3, 0],
      ] as const) {
        const event = draftLineChanged({ organizationId, line, account, eventType, version });
        await harness.publishDraftLine(event.event_type, encodeEnvelope(event), event.event_id);
        await waitFor(
          async () =>
            (await harness.deps.orm.em
              .fork()
              .count(InboxMessage, { consumer: harness.draftLineConsumer, messageId: event.event_id })) === 1,
          { timeoutMs: 10_000, description: `draft line event ${eventType} handled` },
        );
        expect(await lines(), eventType).toBe(expected);
      }
    });

    it('sets aside an event it cannot use without holding back the ones after it', async () => {
      const { organizationId, context, event } = await newOrganization();
      const account = await newAccount(context, 'poison');
      const [unusable, usable] = [randomUUID(), randomUUID()];
      const bad = event({
        subscription: unusable,
        account,
        status: 'cancelled',
        lastModified: '2026-06-01T00:00:00Z',
        version: 1,
      });

      await harness.publish(encodeEnvelope(bad), bad.event_id);
      await deliver(
        event({ subscription: usable, account, status: 'active', lastModified: '2026-06-01T00:00:00Z', version: 1 }),
      );

      expect(await stateOf(organizationId, usable)).toEqual({
        status: 'active',
        version: 1,
        last_modified_date: '2026-06-01T00:00:00.000Z',
      });
      expect(await stateOf(organizationId, unusable)).toBeNull();
      expect(await handled(bad)).toBe(false);
    });
  });
}
