/**
 * GET /api/v1/invoices/ filters and ordering (api-spec "Invoices"). One organization, four
 * documents made through HTTP on the platform clock (Europe/Copenhagen):
 *
 * | # | account | made               | currency | total   | status   | other                         |
 * |---|---------|--------------------|----------|---------|----------|-------------------------------|
 * | 1 | nordic  | 15 Jan, due 29 Jan | DKK      | 125.00  | credited | credited by #4                |
 * | 2 | baltic  | 17 Jan, due 31 Jan | DKK      | 250.00  | paid     | paid on 17 Jan                |
 * | 3 | nordic  | 19 Jan, due 2 Feb  | EUR      | 37.50   | open     | payment_card, commission_pending |
 * | 4 | nordic  | 19 Jan, due 29 Jan | DKK      | -125.00 | credited | the credit note of #1         |
 */
import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { createAccount, createPlan, createPlanTerms, expectStatus, newOrganization, usePlatform } from './helpers.js';
import {
  actionPath,
  INVOICES,
  type Invoice,
  invoicePath,
  listNumbers,
  subscribe,
  waitForInvoices,
} from './invoices-helpers.js';

const platform = usePlatform();
const DAY = 86_400_000;

/** A code of letters only, so that a numeric search can only match invoice numbers. */
const letters = (prefix: string) =>
  `${prefix}-${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('')}`;

let api: ApiClient;
let nordic: { code: string; uuid: string };
let baltic: { code: string; uuid: string };
const subscriptions: string[] = [];
const invoices: Invoice[] = [];

beforeAll(async () => {
  const organization = await newOrganization(platform(), { features: ['kickback'] });
  api = organization.api;
  nordic = await createAccount(api, letters('nordic'), { company_name: 'Nordic Widgets ApS' });
  baltic = await createAccount(api, letters('baltic'), { company_name: 'Baltic Gears' });
  const plan = await createPlan(api);
  const dkk = await createPlanTerms(api, plan.uuid, { price: '100.00', currency: 'DKK' });
  const eur = await createPlanTerms(api, plan.uuid, { price: '10.00', currency: 'EUR' });

  const issue = async (code: string, terms: { uuid: string }, body: Record<string, unknown>, count: number) => {
    const subscription = await subscribe(api, { code, terms }, body);
    subscriptions.push(subscription.uuid);
    await waitForInvoices(api, '', count);
  };
  await issue(nordic.code, dkk, { quantity: 1 }, 1);
  platform().clock.advanceMs(2 * DAY);
  await issue(baltic.code, dkk, { quantity: 2 }, 2);
  const all = async () => (await api.get(`${INVOICES}?ordering=invoice_number`)).body.results as Invoice[];
  expectStatus(
    await api.post(actionPath((await all())[1]!.uuid, 'register-payment'), { registration_date: '2026-01-17' }),
    200,
  );
  platform().clock.advanceMs(2 * DAY);
  await issue(nordic.code, eur, { quantity: 3, collection_method: 'payment_card' }, 3);
  expectStatus(await api.patch(invoicePath((await all())[2]!.uuid), { kickback_status: 'commission_pending' }), 200);
  platform().clock.advanceMs(60_000);
  expectStatus(await api.post(actionPath((await all())[0]!.uuid, 'credit')), 200);
  invoices.push(...(await all()));
});

describe('the fixture', () => {
  it('is four documents as the table above says', () => {
    expect(
      invoices.map((invoice) => [
        invoice.invoice_number,
        invoice.account_code,
        invoice.date,
        invoice.due_date,
        invoice.currency,
        invoice.total,
        invoice.balance,
        invoice.status,
        invoice.collection_method,
        invoice.kickback_status,
        invoice.is_credit_note,
      ]),
    ).toEqual([
      [1, nordic.code, '2026-01-15', '2026-01-29', 'DKK', 125, 0, 'credited', 'invoice', null, false],
      [2, baltic.code, '2026-01-17', '2026-01-31', 'DKK', 250, 0, 'paid', 'invoice', null, false],
      [
        3,
        nordic.code,
        '2026-01-19',
        '2026-02-02',
        'EUR',
        37.5,
        37.5,
        'open',
        'payment_card',
        'commission_pending',
        false,
      ],
      [4, nordic.code, '2026-01-19', '2026-01-29', 'DKK', -125, 0, 'credited', 'invoice', null, true],
    ]);
  });
});

describe('filters', () => {
  it.each([
    ['', [4, 3, 2, 1]],
    ['status=', [4, 3, 2, 1]],
    ['invoice_number=3', [3]],
    ['invoice_number=99', []],
    ['search=Nordic', [4, 3, 1]],
    ['search=gears', [2]],
    ['search=2', [2]],
    ['search=nothing-like-it', []],
    ['status=open', [3]],
    ['status=paid', [2]],
    ['status=credited', [4, 1]],
    ['status_not=credited', [3, 2]],
    ['total__gt=100', [2, 1]],
    ['total__lt=100', [4, 3]],
    ['total__gt=37.5&total__lt=200', [1]],
    ['total__lt=-1', [4]],
    ['balance=37.50', [3]],
    ['balance=37.5', [3]],
    ['balance=0', [4, 2, 1]],
    ['debt_collection=true', []],
    ['debt_collection=false', [4, 3, 2, 1]],
    ['currency=EUR', [3]],
    ['currency=DKK', [4, 2, 1]],
    ['collection_method=payment_card', [3]],
    ['collection_method=direct_debit', []],
    ['kickback_status=commission_pending', [3]],
    ['kickback_status=commission_paid', []],
    ['imported=false', [4, 3, 2, 1]],
    ['imported=true', []],
    ['import_source=manual', []],
    ['date__gte=2026-01-17', [4, 3, 2]],
    ['date__lte=2026-01-17', [2, 1]],
    ['since=2026-01-17', [4, 3, 2]],
    ['since=2026-01-19&date__gte=2026-01-17', [4, 3]],
    ['since=2026-01-15&date__gte=2026-01-19', [4, 3]],
    ['due_date__gte=2026-01-31', [3, 2]],
    ['due_date__lte=2026-01-29', [4, 1]],
    ['created_date__gte=2026-01-17', [4, 3, 2]],
    ['created_date__lte=2026-01-17', [2, 1]],
    ['created_date__lte=2026-01-17T08:59:59Z', [1]],
    ['created_date__gte=2026-01-19T09:00:30Z', [4]],
    ['last_modified_date__lte=2026-01-18', [2]],
    ['last_modified_date__gte=2026-01-19', [4, 3, 1]],
  ])('?%s → %j', async (query, expected) => {
    expect(await listNumbers(api, query)).toEqual(expected);
  });

  it('account and account_not take account codes: unknown ones match nothing, resp. exclude nothing', async () => {
    expect(await listNumbers(api, `account=${nordic.code}`)).toEqual([4, 3, 1]);
    expect(await listNumbers(api, `account=${baltic.code}`)).toEqual([2]);
    expect(await listNumbers(api, 'account=no-such-code')).toEqual([]);
    expect(await listNumbers(api, `account_not=${nordic.code}`)).toEqual([2]);
    expect(await listNumbers(api, 'account_not=no-such-code')).toEqual([4, 3, 2, 1]);
    expect(await listNumbers(api, `account=${nordic.code}&account_not=${nordic.code}`)).toEqual([]);
  });

  it('uuid and subscription_uuid name one invoice, resp. the documents of one subscription', async () => {
    expect(await listNumbers(api, `uuid=${invoices[1]!.uuid}`)).toEqual([2]);
    expect(await listNumbers(api, `subscription_uuid=${subscriptions[0]}`)).toEqual([4, 1]);
    expect(await listNumbers(api, `subscription_uuid=${subscriptions[2]}`)).toEqual([3]);
  });

  it.each([
    ['uuid=nope', { uuid: ['Enter a valid UUID.'] }],
    ['invoice_number=abc', { invoice_number: ['Enter a whole number.'] }],
    ['status=void', { status: ['Select a valid choice. void is not one of the available choices.'] }],
    ['status_not=void', { status_not: ['Select a valid choice. void is not one of the available choices.'] }],
    ['total__gt=abc', { total__gt: ['Enter a number.'] }],
    ['total__lt=1,5', { total__lt: ['Enter a number.'] }],
    ['balance=x', { balance: ['Enter a number.'] }],
    ['subscription_uuid=1', { subscription_uuid: ['Enter a valid UUID.'] }],
    [
      'debt_collection=maybe',
      { debt_collection: ['Select a valid choice. maybe is not one of the available choices.'] },
    ],
    ['imported=yes', { imported: ['Select a valid choice. yes is not one of the available choices.'] }],
    ['currency=XXX', { currency: ['Select a valid choice. XXX is not one of the available choices.'] }],
    [
      'collection_method=cash',
      { collection_method: ['Select a valid choice. cash is not one of the available choices.'] },
    ],
    ['kickback_status=x', { kickback_status: ['Select a valid choice. x is not one of the available choices.'] }],
    ['since=yesterday', { since: ['Enter a valid date.'] }],
    ['date__gte=2026-13-01', { date__gte: ['Enter a valid date.'] }],
    ['due_date__lte=2026-02-30', { due_date__lte: ['Enter a valid date.'] }],
    ['created_date__gte=soon', { created_date__gte: ['Enter a valid date/time.'] }],
    ['last_modified_date__lte=x', { last_modified_date__lte: ['Enter a valid date/time.'] }],
  ])('?%s is 400 naming the filter', async (query, body) => {
    const response = await api.get(`${INVOICES}?${query}`);
    expectStatus(response, 400);
    expect(response.body).toEqual(body);
  });
});

describe('ordering', () => {
  it.each([
    ['ordering=invoice_number', [1, 2, 3, 4]],
    ['ordering=-invoice_number', [4, 3, 2, 1]],
    ['ordering=total', [4, 3, 1, 2]],
    ['ordering=-total', [2, 1, 3, 4]],
    ['ordering=-date&date__lte=2026-01-17', [2, 1]],
    ['ordering=due_date&due_date__gte=2026-01-31', [2, 3]],
    ['ordering=created_date', [1, 2, 3, 4]],
    ['ordering=-created_date', [4, 3, 2, 1]],
    ['ordering=balance', [4, 3, 2, 1]],
  ])('?%s → %j', async (query, expected) => {
    expect(await listNumbers(api, query)).toEqual(expected);
  });
});
