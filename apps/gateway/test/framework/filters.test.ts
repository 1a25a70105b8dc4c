import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  endOfLocalDay,
  filterField,
  instantRange,
  orgTzDateFilters,
  parseOrThrow,
  rangeFilters,
  startOfLocalDay,
} from '../../src/http/index.js';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

const WIDGETS = '/api/v1/widgets/';

describe('filters over HTTP', () => {
  let app: WidgetApp;
  const names = async (query: string) => {
    const response = await app.request('GET', `${WIDGETS}?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return (response.body as { results: Array<{ name: string }> }).results.map((widget) => widget.name);
  };

  beforeAll(async () => {
    app = await startWidgetApp();
    // Around midnight in Copenhagen (UTC+1 in January): 22:59Z is still the 14th there, 23:00Z the 15th.
    app.store.add({
      uuid: 'aaaaaaaa-0000-4000-8000-000000000001',
      name: 'late-14th',
      created_date: '2026-01-14T22:59:59.000Z',
      size: 5,
    });
    app.store.add({
      uuid: 'aaaaaaaa-0000-4000-8000-000000000002',
      name: 'early-15th',
      created_date: '2026-01-14T23:00:00.000Z',
      size: 10,
      active: false,
    });
    app.store.add({
      uuid: 'aaaaaaaa-0000-4000-8000-000000000003',
      name: 'late-15th',
      created_date: '2026-01-15T22:59:59.999Z',
      size: 15,
      color: 'red',
    });
    app.store.add({
      uuid: 'aaaaaaaa-0000-4000-8000-000000000004',
      name: 'early-16th',
      created_date: '2026-01-15T23:00:00.000Z',
      size: 20,
    });
  });
  afterAll(() => app.close());

  it.each([
    ['created_date__org_tz_gte=2026-01-15', ['early-15th', 'late-15th', 'early-16th']],
    ['created_date__org_tz_lte=2026-01-15', ['late-14th', 'early-15th', 'late-15th']],
    ['created_date__org_tz_gte=2026-01-15&created_date__org_tz_lte=2026-01-15', ['early-15th', 'late-15th']],
    ['created_date__gte=2026-01-14T23:00:00Z', ['early-15th', 'late-15th', 'early-16th']],
    ['created_date__lte=2026-01-14T23:00:00Z', ['late-14th', 'early-15th']],
    ['created_date__gte=2026-01-15T00:00:00%2B01:00', ['early-15th', 'late-15th', 'early-16th']],
    ['created_date__gte=2026-01-14T23:00:00Z&created_date__org_tz_gte=2026-01-16', ['early-16th']],
    ['active=false', ['early-15th']],
    ['active=False', ['early-15th']],
    ['active=0', ['early-15th']],
    ['active=true', ['late-14th', 'late-15th', 'early-16th']],
    ['active=True', ['late-14th', 'late-15th', 'early-16th']],
    ['active=1', ['late-14th', 'late-15th', 'early-16th']],
    ['active=', ['late-14th', 'early-15th', 'late-15th', 'early-16th']],
    ['color=red', ['late-15th']],
    ['size__gt=5&size__lt=20', ['early-15th', 'late-15th']],
    ['uuid=AAAAAAAA-0000-4000-8000-000000000004', ['early-16th']],
    ['name=late-14th', ['late-14th']],
  ])('%s', async (query, expected) => {
    expect(await names(query)).toEqual(expected);
  });

  it.each([
    ['created_date__gte', 'yesterday', 'Enter a valid date/time.'],
    ['created_date__lte', '2026-13-01T00:00:00Z', 'Enter a valid date/time.'],
    ['created_date__org_tz_gte', '2026-01-15T00:00:00Z', 'Enter a valid date.'],
    ['created_date__org_tz_lte', '15/01/2026', 'Enter a valid date.'],
    ['launch_date', '2026-02-30', 'Enter a valid date.'],
    ['active', 'maybe', 'Select a valid choice. maybe is not one of the available choices.'],
    ['color', 'purple', 'Select a valid choice. purple is not one of the available choices.'],
    ['uuid', 'not-a-uuid', 'Enter a valid UUID.'],
    ['size', 'ten', 'Enter a whole number.'],
    ['size__gt', '1.5', 'Enter a whole number.'],
  ])('answers %s=%s with 400 naming the filter', async (filter, value, message) => {
    const response = await app.request('GET', `${WIDGETS}?${filter}=${encodeURIComponent(value)}`);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ [filter]: [message] });
  });

  it('reports every bad filter at once', async () => {
    const response = await app.request('GET', `${WIDGETS}?active=maybe&created_date__gte=soon`);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      active: ['Select a valid choice. maybe is not one of the available choices.'],
      created_date__gte: ['Enter a valid date/time.'],
    });
  });

  it('checks filters before the page number', async () => {
    const response = await app.request('GET', `${WIDGETS}?page=abc&active=maybe`);

    expect(response.status).toBe(400);
  });
});

describe('organization time zone days', () => {
  it.each([
    ['Europe/Copenhagen', '2026-01-15', '2026-01-14T23:00:00.000Z', '2026-01-15T22:59:59.999Z'],
    ['Europe/Copenhagen', '2026-07-15', '2026-07-14T22:00:00.000Z', '2026-07-15T21:59:59.999Z'],
    // Spring forward: the day has 23 hours. Fall back: 25.
    ['Europe/Copenhagen', '2026-03-29', '2026-03-28T23:00:00.000Z', '2026-03-29T21:59:59.999Z'],
    ['Europe/Copenhagen', '2026-10-25', '2026-10-24T22:00:00.000Z', '2026-10-25T22:59:59.999Z'],
    ['America/New_York', '2026-01-15', '2026-01-15T05:00:00.000Z', '2026-01-16T04:59:59.999Z'],
    ['Asia/Kolkata', '2026-01-15', '2026-01-14T18:30:00.000Z', '2026-01-15T18:29:59.999Z'],
    ['UTC', '2026-01-15', '2026-01-15T00:00:00.000Z', '2026-01-15T23:59:59.999Z'],
    // Midnight does not exist on this day (clocks jump from 00:00 to 01:00): the day starts at 01:00.
    ['America/Santiago', '2022-09-11', '2022-09-11T04:00:00.000Z', '2022-09-12T02:59:59.999Z'],
  ])('%s %s runs from %s to %s', (timeZone, date, start, end) => {
    expect(startOfLocalDay(date, timeZone).toISOString()).toBe(start);
    expect(endOfLocalDay(date, timeZone).toISOString()).toBe(end);
  });

  it('refuses an unknown zone or a date that does not exist', () => {
    expect(() => startOfLocalDay('2026-01-15', 'Mars/Olympus')).toThrow(RangeError);
    expect(() => startOfLocalDay('2026-02-30', 'UTC')).toThrow(RangeError);
  });
});

describe('instantRange', () => {
  const Filters = z.object({
    ...rangeFilters('date', filterField.date, ['gte', 'lte', 'gt', 'lt']),
    ...rangeFilters('updated', filterField.datetime),
    ...orgTzDateFilters('updated'),
  });

  it('reads plain dates as whole UTC days', () => {
    const query = parseOrThrow(Filters, {
      date__gte: '2026-01-15',
      date__lte: '2026-01-16',
      date__gt: '2026-01-01',
      date__lt: '2026-02-01',
    });

    expect(instantRange(query, 'date')).toEqual({
      gte: new Date('2026-01-15T00:00:00.000Z'),
      lte: new Date('2026-01-16T23:59:59.999Z'),
      gt: new Date('2026-01-01T23:59:59.999Z'),
      lt: new Date('2026-02-01T00:00:00.000Z'),
    });
  });

  it('keeps the narrower bound when a bound is given both ways', () => {
    const query = parseOrThrow(Filters, {
      updated__gte: '2026-01-15T12:00:00Z',
      updated__org_tz_gte: '2026-01-15',
      updated__lte: '2026-01-20T00:00:00Z',
      updated__org_tz_lte: '2026-01-19',
    });

    expect(instantRange(query, 'updated', 'Europe/Copenhagen')).toEqual({
      gte: new Date('2026-01-15T12:00:00.000Z'),
      lte: new Date('2026-01-19T22:59:59.999Z'),
    });
  });

  it('is empty without bounds', () => {
    expect(instantRange(parseOrThrow(Filters, {}), 'updated', 'Europe/Copenhagen')).toEqual({});
  });
});
