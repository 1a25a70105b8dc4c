import { describe, expect, it } from 'vitest';
import { isHttpError, parseOrThrow } from '../../http/index.js';
import { CancelBody, SubscriptionFilters, SubscriptionUpdateBody } from './subscription-schemas.js';

/** The DRF body of a refused parse, or the parsed value. */
function outcome(schema: Parameters<typeof parseOrThrow>[0], input: unknown): unknown {
  try {
    return { ok: parseOrThrow(schema, input) };
  } catch (error) {
    if (isHttpError(error)) return { status: error.status, body: error.body };
    throw error;
  }
}

describe('update body: how the change takes effect', () => {
  it.each([
    [{ change_type: 'at_specified_time', prorate_date: '2026-03-01T00:00:00Z' }],
    [{ change_type: 'at_renewal', change_renewal: 11 }],
    [{ change_type: 'at_renewal' }],
    [{ change_type: 'immediate', early_renewal: true }],
    [{ early_renewal: true }],
    [{ change_type: 'at_specified_time', prorate_date: '2026-03-01T00:00:00Z', early_renewal: true }],
    [{ change_type: 'at_renewal', early_renewal: false }],
    [{ quantity: 3, prorate: false }],
  ])('takes %j', (body) => {
    expect(outcome(SubscriptionUpdateBody, body)).toHaveProperty('ok');
  });

  it.each([
    [
      { change_type: 'immediate', prorate_date: '2026-03-01T00:00:00Z' },
      { prorate_date: ['Only allowed with change_type at_specified_time.'] },
    ],
    [{ prorate_date: '2026-03-01T00:00:00Z' }, { prorate_date: ['Only allowed with change_type at_specified_time.'] }],
    [
      { change_type: 'at_specified_time' },
      { prorate_date: ['This field is required with change_type at_specified_time.'] },
    ],
    [
      { change_type: 'immediate', change_renewal: 0 },
      { change_renewal: ['Only allowed with change_type at_renewal.'] },
    ],
    [
      { change_type: 'at_renewal', early_renewal: true },
      { early_renewal: ['Only allowed with change_type immediate or at_specified_time.'] },
    ],
    [
      { change_type: 'at_renewal', change_renewal: 12 },
      { change_renewal: ['Ensure this value is less than or equal to 11.'] },
    ],
    [{ change_type: 'later' }, { change_type: ['"later" is not a valid choice.'] }],
  ])('refuses %j', (body, errors) => {
    expect(outcome(SubscriptionUpdateBody, body)).toEqual({ status: 400, body: errors });
  });

  it('reports field errors before combination errors, as DRF runs validate() last', () => {
    expect(outcome(SubscriptionUpdateBody, { change_type: 'at_specified_time', quantity: -1 })).toEqual({
      status: 400,
      body: { quantity: ['Ensure this value is greater than or equal to 0.'] },
    });
  });
});

describe('cancel body', () => {
  it.each([
    [{ cancellation_type: 'at_renewal', cancel_renewal: 0 }],
    [{ cancellation_type: 'at_specified_time', cancel_date: '2026-03-01T00:00:00Z' }],
    [{ cancellation_type: 'cancel_invalid' }],
  ])('takes %j', (body) => {
    expect(outcome(CancelBody, body)).toHaveProperty('ok');
  });

  it.each([
    [{}, { cancellation_type: ['This field is required.'] }],
    [
      { cancellation_type: 'today', cancel_renewal: 1 },
      { cancel_renewal: ['Only allowed with cancellation_type at_renewal.'] },
    ],
    [
      { cancellation_type: 'at_renewal', cancel_date: '2026-03-01T00:00:00Z' },
      { cancel_date: ['Only allowed with cancellation_type at_specified_time.'] },
    ],
    [
      { cancellation_type: 'at_specified_time' },
      { cancel_date: ['This field is required with cancellation_type at_specified_time.'] },
    ],
    [
      { cancellation_type: 'at_renewal', cancel_renewal: -1 },
      { cancel_renewal: ['Ensure this value is greater than or equal to 0.'] },
    ],
  ])('refuses %j', (body, errors) => {
    expect(outcome(CancelBody, body)).toEqual({ status: 400, body: errors });
  });
});

describe('list filters', () => {
  it('reads __lte/__gte as a date (kept as text: a whole UTC day) or an exact instant', () => {
    expect(
      outcome(SubscriptionFilters, {
        start_date__gte: '2026-02-01',
        start_date__lte: '2026-02-01T10:30:00+01:00',
        end_date__org_tz_gte: '2026-02-01',
      }),
    ).toEqual({
      ok: {
        start_date__gte: '2026-02-01',
        start_date__lte: new Date('2026-02-01T09:30:00.000Z'),
        end_date__org_tz_gte: '2026-02-01',
      },
    });
  });

  it('refuses unusable values with django-filter wording, naming the filter', () => {
    expect(
      outcome(SubscriptionFilters, {
        start_date__gte: 'soon',
        next_renewal_date__org_tz_lte: '2026-02-30',
        status: 'paused',
        plan: 'x',
      }),
    ).toEqual({
      status: 400,
      body: {
        start_date__gte: ['Enter a valid date/time.'],
        next_renewal_date__org_tz_lte: ['Enter a valid date.'],
        status: ['Select a valid choice. paused is not one of the available choices.'],
        plan: ['Enter a valid UUID.'],
      },
    });
  });
});
