import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

const WIDGETS = '/api/v1/widgets/';
const W1 = '11111111-1111-4111-8111-111111111111';

describe('DRF validation errors', () => {
  let app: WidgetApp;
  const create = (body: unknown) => app.request('POST', WIDGETS, { body });

  beforeAll(async () => {
    app = await startWidgetApp();
    app.store.add({ uuid: W1, name: 'one' });
  });
  afterAll(() => app.close());

  it.each([
    ['a missing required field', {}, { name: ['This field is required.'] }],
    ['null on a non-nullable field', { name: null }, { name: ['This field may not be null.'] }],
    ['an empty string', { name: '' }, { name: ['This field may not be blank.'] }],
    ['only whitespace', { name: '   ' }, { name: ['This field may not be blank.'] }],
    ['a string too long', { name: 'x'.repeat(129) }, { name: ['Ensure this field has no more than 128 characters.'] }],
    ['a non-string', { name: ['x'] }, { name: ['Not a valid string.'] }],
    ['a bad choice', { name: 'w', color: 'XX' }, { color: ['"XX" is not a valid choice.'] }],
    ['a missing-valued choice', { name: 'w', color: null }, { color: ['This field may not be null.'] }],
    ['a bad integer', { name: 'w', size: 'ten' }, { size: ['A valid integer is required.'] }],
    ['a fractional integer', { name: 'w', size: 1.5 }, { size: ['A valid integer is required.'] }],
    ['an integer over max', { name: 'w', size: 101 }, { size: ['Ensure this value is less than or equal to 100.'] }],
    ['an integer under min', { name: 'w', size: -1 }, { size: ['Ensure this value is greater than or equal to 0.'] }],
    ['a bad boolean', { name: 'w', active: 'maybe' }, { active: ['Must be a valid boolean.'] }],
    ['a bad email', { name: 'w', contact: 'not-an-email' }, { contact: ['Enter a valid email address.'] }],
    ['a blank email', { name: 'w', contact: '' }, { contact: ['This field may not be blank.'] }],
    ['a bad uuid', { name: 'w', owner: 'abc' }, { owner: ['Must be a valid UUID.'] }],
    ['a number for a uuid', { name: 'w', owner: 12 }, { owner: ['Must be a valid UUID.'] }],
    [
      'a bad date',
      { name: 'w', launch_date: '2026-02-30' },
      { launch_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] },
    ],
    [
      'a datetime for a date',
      { name: 'w', launch_date: '2026-02-03T10:00:00Z' },
      { launch_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] },
    ],
    [
      'a bad datetime',
      { name: 'w', launch_at: 'tomorrow' },
      {
        launch_at: [
          'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
        ],
      },
    ],
    ['a bad decimal', { name: 'w', price: '12,50' }, { price: ['A valid number is required.'] }],
    [
      'too many decimal places',
      { name: 'w', price: '1.505' },
      { price: ['Ensure that there are no more than 2 decimal places.'] },
    ],
    [
      'too many digits',
      { name: 'w', price: '123456789' },
      { price: ['Ensure that there are no more than 8 digits in total.'] },
    ],
    [
      'too many whole digits',
      { name: 'w', price: '1234567.5' },
      { price: ['Ensure that there are no more than 6 digits before the decimal point.'] },
    ],
    ['an unknown country', { name: 'w', country: 'XX' }, { country: ['"XX" is not a valid choice.'] }],
    ['an unknown currency', { name: 'w', currency: 'BTC' }, { currency: ['"BTC" is not a valid choice.'] }],
    [
      'a nullable string too long',
      { name: 'w', nickname: 'x'.repeat(11) },
      { nickname: ['Ensure this field has no more than 10 characters.'] },
    ],
  ])('%s', async (_case, body, expected) => {
    const response = await create(body);

    expect(response.status).toBe(400);
    expect(response.body).toEqual(expected);
  });

  it('reports every failing field at once', async () => {
    const response = await create({ color: 'XX', size: 'ten', owner: 'abc' });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      name: ['This field is required.'],
      color: ['"XX" is not a valid choice.'],
      size: ['A valid integer is required.'],
      owner: ['Must be a valid UUID.'],
    });
  });

  it('nests errors of nested objects', async () => {
    const response = await create({ name: 'w', dimensions: { width: 0 } });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      dimensions: {
        width: ['Ensure this value is greater than or equal to 1.'],
        height: ['This field is required.'],
      },
    });
  });

  it('reports a nested object of the wrong type under its non_field_errors', async () => {
    const response = await create({ name: 'w', dimensions: 'big' });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      dimensions: { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
    });
  });

  it('reports list items of objects as a list with {} for the valid ones', async () => {
    const response = await create({
      name: 'w',
      parts: [{ sku: 'a', quantity: 1 }, { sku: 'toolongsku', quantity: 0 }, 'x'],
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      parts: [
        {},
        {
          sku: ['Ensure this field has no more than 8 characters.'],
          quantity: ['Ensure this value is greater than or equal to 1.'],
        },
        { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
      ],
    });
  });

  it('reports list items of plain values by index', async () => {
    const response = await create({ name: 'w', tags: ['ok', 'much too long', 'fine'] });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ tags: { '1': ['Ensure this field has no more than 5 characters.'] } });
  });

  it('reports a list field that is not a list', async () => {
    const response = await create({ name: 'w', tags: 'one' });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ tags: ['Expected a list of items but got type "str".'] });
  });

  it('reports a list body item by item', async () => {
    const response = await app.request('POST', `${WIDGETS}${W1}/gateways/`, {
      body: [
        { payment_gateway: 'noop', payment_gateway_account_id: 'acct-1' },
        { payment_gateway: 'paypal', payment_gateway_account_id: '' },
      ],
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual([
      {},
      {
        payment_gateway: ['"paypal" is not a valid choice.'],
        payment_gateway_account_id: ['This field may not be blank.'],
      },
    ]);
  });

  it('refuses an empty list body when the route needs items', async () => {
    const response = await app.request('POST', `${WIDGETS}${W1}/gateways/`, { body: [] });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['This list may not be empty.'] });
  });

  it('refuses an object where a list body is expected', async () => {
    const response = await app.request('POST', `${WIDGETS}${W1}/gateways/`, { body: { payment_gateway: 'noop' } });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['Expected a list of items but got type "dict".'] });
  });

  it('accepts what DRF accepts and hands on normalised values', async () => {
    const response = await create({
      name: '  Widget  ',
      nickname: '',
      color: 'blue',
      size: '42',
      active: 'yes',
      contact: ' ops@example.com ',
      owner: '{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}',
      launch_date: '2026-02-28',
      launch_at: '2026-02-28T10:00:00+01:00',
      price: 10,
      country: 'DK',
      currency: 'EUR',
      dimensions: { width: '3', height: 4.0 },
      tags: ['a', 'b'],
      unknown_field: 'ignored',
    });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      name: 'Widget',
      nickname: '',
      color: 'blue',
      size: 42,
      active: true,
      contact: 'ops@example.com',
      owner: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      launch_date: '2026-02-28',
      launch_at: '2026-02-28T09:00:00.000Z',
      price: '10.00',
      country: 'DK',
      currency: 'EUR',
      dimensions: { width: 3, height: 4 },
      tags: ['a', 'b'],
    });
  });

  it('validates partial updates field by field', async () => {
    const ok = await app.request('PATCH', `${WIDGETS}${W1}/`, { body: { color: 'blue' } });
    const bad = await app.request('PATCH', `${WIDGETS}${W1}/`, { body: { name: '' } });

    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ uuid: W1, name: 'one', color: 'blue' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ name: ['This field may not be blank.'] });
  });
});
