/**
 * GET /api/v1/subscriptions/ (api-spec "Subscriptions"): the envelope, paging, the ordering
 * whitelist and every filter of the spec, including the __org_tz_ variants at exact day boundaries
 * of the organization's time zone.
 */
import { describe, expect, it } from 'vitest';
import { createRecipient, expectStatus, newOrganization, pathOf, usePlatform } from './helpers.js';
import {
  createSubscription,
  listUuids,
  SUBSCRIPTIONS,
  subscriptionFixture,
  subscriptionPath,
} from './subscriptions-helpers.js';

const platform = usePlatform();
const tick = () => platform().clock.advanceMs(1_000);
const shift = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();
/** The calendar date of `iso` on the wall clocks of `timeZone`. */
const localDate = (iso: string, timeZone: string) => new Date(iso).toLocaleDateString('sv-SE', { timeZone });
const dayAfter = (date: string, days = 1) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('envelope, paging and ordering', () => {
  it('lists the organization’s subscriptions oldest first in the envelope', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const first = await createSubscription(api, fixture);
    await tick();
    const second = await createSubscription(api, fixture);

    const response = await api.get(SUBSCRIPTIONS);

    expectStatus(response, 200);
    expect(response.body).toEqual({ count: 2, next: null, previous: null, results: [first, second] });
  });

  it('pages with links that keep the filters, and answers a page past the end with 404', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const created = [];
    for (let index = 0; index < 3; index++) {
      created.push(await createSubscription(api, fixture));
      await tick();
    }

    const first = await api.get(`${SUBSCRIPTIONS}?status=active&page_size=2`);
    const second = await api.get(pathOf(first.body.next));
    const past = await api.get(`${SUBSCRIPTIONS}?page=3&page_size=2`);

    expect(first.body.count).toBe(3);
    expect(first.body.results.map((item: { uuid: string }) => item.uuid)).toEqual([created[0].uuid, created[1].uuid]);
    expect(first.body.previous).toBeNull();
    expect(new URL(first.body.next).searchParams.get('status')).toBe('active');
    expect(second.body.results.map((item: { uuid: string }) => item.uuid)).toEqual([created[2].uuid]);
    expect(second.body.next).toBeNull();
    expect(pathOf(second.body.previous)).toMatch(/^\/api\/v1\/subscriptions\/\?/);
    expectStatus(past, 404);
    expect(past.body).toEqual({ detail: 'Invalid page.' });
  });

  it('orders by each whitelisted field, descending with "-", and ignores other names', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const late = await createSubscription(api, fixture, { start_date: '2026-09-01T00:00:00Z' });
    await tick();
    const early = await createSubscription(api, fixture, { start_date: '2026-03-01T00:00:00Z' });
    await tick();
    const now = await createSubscription(api, fixture);

    expect(await listUuids(api, 'ordering=start_date')).toEqual([now.uuid, early.uuid, late.uuid]);
    expect(await listUuids(api, 'ordering=-start_date')).toEqual([late.uuid, early.uuid, now.uuid]);
    expect(await listUuids(api, 'ordering=-created_date')).toEqual([now.uuid, early.uuid, late.uuid]);
    expect(await listUuids(api, 'ordering=last_modified_date')).toEqual([late.uuid, early.uuid, now.uuid]);
    // active sorts before scheduled; ties are oldest first.
    expect(await listUuids(api, 'ordering=status')).toEqual([now.uuid, late.uuid, early.uuid]);
    expect(await listUuids(api, 'ordering=-status')).toEqual([late.uuid, early.uuid, now.uuid]);
    expect(await listUuids(api, 'ordering=quantity')).toEqual([late.uuid, early.uuid, now.uuid]);
    expect(await listUuids(api, 'ordering=-next_renewal_date')).toHaveLength(3);
    expect(await listUuids(api, 'ordering=end_date')).toHaveLength(3);
  });
});

describe('filters', () => {
  it('account (a code; an unknown code is an empty list, not an error), plan and terms', async () => {
    const { api } = await newOrganization(platform());
    const a = await subscriptionFixture(api);
    const b = await subscriptionFixture(api);
    const ofA = await createSubscription(api, a);
    await tick();
    const ofB = await createSubscription(api, b);
    await tick();
    const otherTerms = await createSubscription(api, { code: a.code, terms: b.terms });

    expect(await listUuids(api, `account=${a.code}`)).toEqual([ofA.uuid, otherTerms.uuid]);
    expect(await listUuids(api, `account=${b.code}`)).toEqual([ofB.uuid]);
    expect((await api.get(`${SUBSCRIPTIONS}?account=nobody`)).body).toEqual({
      count: 0,
      next: null,
      previous: null,
      results: [],
    });
    expect(await listUuids(api, `plan=${b.plan.uuid}`)).toEqual([ofB.uuid, otherTerms.uuid]);
    expect(await listUuids(api, `terms=${a.terms.uuid}`)).toEqual([ofA.uuid]);
    expect(await listUuids(api, `terms=${b.terms.uuid}&account=${a.code}`)).toEqual([otherTerms.uuid]);
  });

  it('status, collection_method, has_custom_price and set_to_expire', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const active = await createSubscription(api, fixture, { override_price: '50' });
    await tick();
    const scheduled = await createSubscription(api, fixture, {
      start_date: '2026-12-01T00:00:00Z',
      collection_method: 'payment_card',
    });
    await tick();
    const ending = await createSubscription(api, fixture);
    expectStatus(await api.post(`${subscriptionPath(ending.uuid)}cancel/`, { cancellation_type: 'at_renewal' }), 200);

    expect(await listUuids(api, 'status=active')).toEqual([active.uuid]);
    expect(await listUuids(api, 'status=scheduled')).toEqual([scheduled.uuid]);
    expect(await listUuids(api, 'status=not_renewing')).toEqual([ending.uuid]);
    expect(await listUuids(api, 'status=expired')).toEqual([]);
    expect(await listUuids(api, 'collection_method=payment_card')).toEqual([scheduled.uuid]);
    expect(await listUuids(api, 'collection_method=invoice')).toEqual([active.uuid, ending.uuid]);
    expect(await listUuids(api, 'has_custom_price=true')).toEqual([active.uuid]);
    expect(await listUuids(api, 'has_custom_price=False')).toEqual([scheduled.uuid, ending.uuid]);
    expect(await listUuids(api, 'set_to_expire=1')).toEqual([ending.uuid]);
    expect(await listUuids(api, 'set_to_expire=false')).toEqual([active.uuid, scheduled.uuid]);
  });

  it('has_recipient_receiving_invoices and account_active_payment_method read the accounts’ data', async () => {
    const { api } = await newOrganization(platform());
    const receiving = await subscriptionFixture(api);
    const silent = await subscriptionFixture(api);
    await createRecipient(api, receiving.account.uuid, { receive_invoice: true });
    await createRecipient(api, silent.account.uuid, { receive_invoice: false });
    const ofReceiving = await createSubscription(api, receiving);
    const ofSilent = await createSubscription(api, silent);

    expect(await listUuids(api, 'has_recipient_receiving_invoices=true')).toEqual([ofReceiving.uuid]);
    expect(await listUuids(api, 'has_recipient_receiving_invoices=false')).toEqual([ofSilent.uuid]);
    expect(await listUuids(api, `has_recipient_receiving_invoices=false&account=${receiving.code}`)).toEqual([]);
    // Every account pays by invoice until the payments capability exists (docs/api.md).
    expect(await listUuids(api, 'account_active_payment_method=payment_card')).toEqual([]);
  });

  it('an empty value means no filter', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const subscription = await createSubscription(api, fixture);

    expect(await listUuids(api, 'status=&account=&start_date__gte=&has_custom_price=')).toEqual([subscription.uuid]);
  });

  it('refuses unusable values with django-filter wording, naming each filter', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.get(
      `${SUBSCRIPTIONS}?status=paused&collection_method=cash&plan=x&terms=y&set_to_expire=maybe&has_custom_price=2` +
        '&has_recipient_receiving_invoices=yes&account_active_payment_method=card&start_date__gte=soon' +
        '&end_date__org_tz_lte=2026-02-30&next_renewal_date__lte=2026-13-01&last_modified_date__org_tz_gte=today',
    );

    expectStatus(response, 400);
    expect(response.body).toEqual({
      status: ['Select a valid choice. paused is not one of the available choices.'],
      collection_method: ['Select a valid choice. cash is not one of the available choices.'],
      plan: ['Enter a valid UUID.'],
      terms: ['Enter a valid UUID.'],
      set_to_expire: ['Select a valid choice. maybe is not one of the available choices.'],
      has_custom_price: ['Select a valid choice. 2 is not one of the available choices.'],
      has_recipient_receiving_invoices: ['Select a valid choice. yes is not one of the available choices.'],
      account_active_payment_method: ['Select a valid choice. card is not one of the available choices.'],
      start_date__gte: ['Enter a valid date/time.'],
      end_date__org_tz_lte: ['Enter a valid date.'],
      next_renewal_date__lte: ['Enter a valid date/time.'],
      last_modified_date__org_tz_gte: ['Enter a valid date.'],
    });
  });
});

describe('date filters', () => {
  it('start_date: __gte/__lte take instants (inclusive) or dates (whole UTC days); __org_tz_ take the organization’s days', async () => {
    const { api } = await newOrganization(platform(), { time_zone: 'Europe/Copenhagen' });
    const fixture = await subscriptionFixture(api);
    // 1 February starts at 2026-01-31T23:00:00Z in Copenhagen (UTC+1 in winter).
    const lastOfJanuary = await createSubscription(api, fixture, { start_date: '2026-01-31T22:59:59.999Z' });
    await tick();
    const firstOfFebruary = await createSubscription(api, fixture, { start_date: '2026-01-31T23:00:00Z' });

    expect(await listUuids(api, 'start_date__org_tz_gte=2026-02-01')).toEqual([firstOfFebruary.uuid]);
    expect(await listUuids(api, 'start_date__org_tz_lte=2026-01-31')).toEqual([lastOfJanuary.uuid]);
    expect(await listUuids(api, 'start_date__org_tz_gte=2026-01-31&start_date__org_tz_lte=2026-01-31')).toEqual([
      lastOfJanuary.uuid,
    ]);
    // The same dates as UTC days: both start on 31 January UTC.
    expect(await listUuids(api, 'start_date__gte=2026-02-01')).toEqual([]);
    expect(await listUuids(api, 'start_date__lte=2026-01-31')).toEqual([lastOfJanuary.uuid, firstOfFebruary.uuid]);
    // Instants are inclusive bounds, offsets honoured.
    expect(await listUuids(api, 'start_date__gte=2026-01-31T23:00:00Z')).toEqual([firstOfFebruary.uuid]);
    expect(await listUuids(api, 'start_date__lte=2026-01-31T23:59:59.999%2B01:00')).toEqual([lastOfJanuary.uuid]);
  });

  it('__org_tz_ follows the organization’s own time zone', async () => {
    const { api } = await newOrganization(platform(), { time_zone: 'America/New_York' });
    const fixture = await subscriptionFixture(api);
    // 1 March starts at 05:00Z in New York (UTC-5 in winter).
    const before = await createSubscription(api, fixture, { start_date: '2026-03-01T04:59:59.999Z' });
    const after = await createSubscription(api, fixture, { start_date: '2026-03-01T05:00:00Z' });

    expect(await listUuids(api, 'start_date__org_tz_gte=2026-03-01')).toEqual([after.uuid]);
    expect(await listUuids(api, 'start_date__org_tz_lte=2026-02-28')).toEqual([before.uuid]);
  });

  it('next_renewal_date and end_date: exact bounds around the stored instant, and its local day', async () => {
    const { api } = await newOrganization(platform(), { time_zone: 'Europe/Copenhagen' });
    const fixture = await subscriptionFixture(api);
    const renewing = await createSubscription(api, fixture);
    const ended = await createSubscription(api, fixture);
    const cancelled = await api.post(`${subscriptionPath(ended.uuid)}cancel/`, { cancellation_type: 'today' });
    expectStatus(cancelled, 200);
    const renewal: string = renewing.next_renewal_date;
    const end: string = cancelled.body.end_date;
    expect(renewal).toEqual(expect.any(String));
    expect(end).toEqual(expect.any(String));

    for (const [name, instant, uuid] of [
      ['next_renewal_date', renewal, renewing.uuid],
      ['end_date', end, ended.uuid],
    ] as const) {
      const day = localDate(instant, 'Europe/Copenhagen');
      const only = async (query: string) => (await listUuids(api, query)).filter((item) => item === uuid);
      expect(await only(`${name}__gte=${encodeURIComponent(instant)}`)).toEqual([uuid]);
      expect(await only(`${name}__gte=${encodeURIComponent(shift(instant, 1))}`)).toEqual([]);
      expect(await only(`${name}__lte=${encodeURIComponent(instant)}`)).toEqual([uuid]);
      expect(await only(`${name}__lte=${encodeURIComponent(shift(instant, -1))}`)).toEqual([]);
      expect(await only(`${name}__org_tz_gte=${day}&${name}__org_tz_lte=${day}`)).toEqual([uuid]);
      expect(await only(`${name}__org_tz_gte=${dayAfter(day)}`)).toEqual([]);
      expect(await only(`${name}__org_tz_lte=${dayAfter(day, -1)}`)).toEqual([]);
    }
    // A subscription without an end date matches no end_date bound.
    expect(await listUuids(api, 'end_date__lte=2099-01-01')).toEqual([ended.uuid]);
  });

  // Moves the shared clock forward: keep it last in this file.
  it('last_modified_date: the organization’s day boundary, to the millisecond', async () => {
    const { api } = await newOrganization(platform(), { time_zone: 'Europe/Copenhagen' });
    const fixture = await subscriptionFixture(api);
    platform().clock.set('2026-02-10T22:59:59.999Z');
    const lateOnTenth = await createSubscription(api, fixture);
    platform().clock.advanceMs(1);
    const startOfEleventh = await createSubscription(api, fixture);

    expect(lateOnTenth.last_modified_date).toBe('2026-02-10T22:59:59.999Z');
    expect(startOfEleventh.last_modified_date).toBe('2026-02-10T23:00:00.000Z');
    expect(await listUuids(api, 'last_modified_date__org_tz_lte=2026-02-10')).toEqual([lateOnTenth.uuid]);
    expect(await listUuids(api, 'last_modified_date__org_tz_gte=2026-02-11')).toEqual([startOfEleventh.uuid]);
    expect(await listUuids(api, 'last_modified_date__gte=2026-02-10T23:00:00Z')).toEqual([startOfEleventh.uuid]);
    expect(await listUuids(api, 'last_modified_date__lte=2026-02-10')).toEqual([
      lateOnTenth.uuid,
      startOfEleventh.uuid,
    ]);
  });
});
