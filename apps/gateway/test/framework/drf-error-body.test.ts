import { describe, expect, it } from 'vitest';
import { parseIsoDateTime, renderDrfErrors } from '../../src/http/index.js';

describe('renderDrfErrors', () => {
  it('puts errors about the whole input under non_field_errors, next to field errors', () => {
    const body = renderDrfErrors(
      [
        { path: [], message: 'Pick one.' },
        { path: ['code'], message: 'Too long.' },
      ],
      { code: 'x' },
    );

    expect(body).toEqual({ non_field_errors: ['Pick one.'], code: ['Too long.'] });
  });

  it('keeps a list body a list, sized to the input, with {} for valid items', () => {
    const body = renderDrfErrors([{ path: [2, 'name'], message: 'Required.' }], [{}, {}, {}, {}]);

    expect(body).toEqual([{}, {}, { name: ['Required.'] }, {}]);
  });

  it('reports a problem with a list body as a whole under non_field_errors', () => {
    const body = renderDrfErrors([{ path: [], message: 'Too many.' }], [{}, {}]);

    expect(body).toEqual({ non_field_errors: ['Too many.'] });
  });

  it('nests lists inside objects inside lists', () => {
    const body = renderDrfErrors([{ path: ['contracts', 1, 'tiers', 0, 'discount'], message: 'Bad.' }], {
      contracts: [{ tiers: [] }, { tiers: [{ discount: 'x' }] }],
    });

    expect(body).toEqual({ contracts: [{}, { tiers: [{ discount: ['Bad.'] }] }] });
  });
});

describe('parseIsoDateTime', () => {
  it.each([
    ['2026-01-15T10:00:00Z', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15T10:00Z', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15T10:00:00.123456Z', '2026-01-15T10:00:00.123Z'],
    ['2026-01-15T10:00:00+02:00', '2026-01-15T08:00:00.000Z'],
    ['2026-01-15T10:00:00-0130', '2026-01-15T11:30:00.000Z'],
    ['2026-01-15 10:00:00', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15', '2026-01-15T00:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseIsoDateTime(text)?.toISOString()).toBe(iso);
  });

  it.each(['2026-02-29T00:00:00Z', '2026-01-15T24:00:00Z', '2026-01-15T10:60:00Z', '2026-01-15Z', 'now', '15/01/2026'])(
    'refuses %s',
    (text) => {
      expect(parseIsoDateTime(text)).toBeNull();
    },
  );
});
