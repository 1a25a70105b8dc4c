import { describe, expect, it } from 'vitest';
import { checkAdvance, parseTimestamp } from './test-clock.js';

const NOW = new Date('2026-01-15T09:00:00.000Z');

describe('checkAdvance', () => {
  it('lets the clock move forward, or stay where it is', () => {
    expect(() => checkAdvance(NOW, new Date('2026-02-15T09:00:00.000Z'))).not.toThrow();
    expect(() => checkAdvance(NOW, new Date(NOW))).not.toThrow();
  });

  it('refuses a time before the clock, naming `to` and the clock time', () => {
    expect(() => checkAdvance(NOW, new Date('2026-01-15T08:59:59.999Z'))).toThrow(
      expect.objectContaining({
        reason: 'VALIDATION_FAILED',
        fieldViolations: [
          {
            field: 'to',
            description: "Ensure this value is not earlier than the test clock's time, 2026-01-15T09:00:00.000Z.",
          },
        ],
      }),
    );
  });

  it('refuses an invalid date', () => {
    expect(() => checkAdvance(NOW, new Date(Number.NaN))).toThrow(
      expect.objectContaining({ fieldViolations: [{ field: 'to', description: 'Enter a valid date/time.' }] }),
    );
  });
});

describe('parseTimestamp', () => {
  it.each([
    ['2026-01-15T09:00:00Z', '2026-01-15T09:00:00.000Z'],
    ['2026-01-15T09:00:00.123456Z', '2026-01-15T09:00:00.123Z'],
    ['2026-01-15T10:00:00+01:00', '2026-01-15T09:00:00.000Z'],
    ['2026-01-15T10:00:00+0100', '2026-01-15T09:00:00.000Z'],
    ['2026-01-15T09:00', '2026-01-15T09:00:00.000Z'],
    ['2026-01-15', '2026-01-15T00:00:00.000Z'],
    ['2028-02-29T00:30:00+01:00', '2028-02-28T23:30:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(parseTimestamp(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '',
    'now',
    '2026-02-29',
    '2026-13-01',
    '2026-01-15T24:30:00Z',
    '2026-01-15 09:00',
    '2026-01-15T09:00:00+24:00',
  ])('%j is no timestamp', (text) => {
    expect(parseTimestamp(text)).toBeNull();
  });
});
