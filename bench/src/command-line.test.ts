import { describe, expect, it } from 'vitest';
import { parseBillingRunOptions } from './billing-run-options.js';
import { benchDatabaseUrl, boundedInteger, chosenSides, parseCommandLine, UsageError } from './command-line.js';
import { parseInvoiceOptions } from './invoice-options.js';
import { parseOptions } from './options.js';
import { parseRenewalOptions } from './renewal-options.js';

const mistake = (read: () => unknown): UsageError => {
  try {
    read();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('no UsageError');
};

describe('the benchmarks’ command lines', () => {
  it('turn every mistake into a UsageError carrying the usage text', () => {
    const error = mistake(() =>
      parseCommandLine('Usage: x', () => {
        throw new TypeError("Unknown option '--bogus'");
      }),
    );
    expect([error.message, error.usage]).toEqual(["Unknown option '--bogus'", 'Usage: x']);
  });

  it('bound integers, naming the flag', () => {
    expect(boundedInteger('--rounds', '3', 1, 10)).toBe(3);
    expect(() => boundedInteger('--rounds', '11', 1, 10)).toThrow('--rounds must be an integer from 1 to 10, got "11"');
    expect(() => boundedInteger('--rounds', '2.5', 1, 10)).toThrow(
      '--rounds must be an integer from 1 to 10, got "2.5"',
    );
  });

  it('choose the sides, refusing an unknown one and a profile of the baseline alone', () => {
    expect(chosenSides('scheduler', undefined, undefined)).toBe('both');
    expect(chosenSides('scheduler', 'baseline', undefined)).toBe('baseline');
    expect(chosenSides('invoicing', 'invoicing', '/tmp/p')).toBe('invoicing');
    expect(() => chosenSides('scheduler', 'other', undefined)).toThrow(
      '--only must be scheduler or baseline, got "other"',
    );
    expect(() => chosenSides('invoicing', 'baseline', '/tmp/p')).toThrow(
      '--cpu-prof profiles the invoicing phases: not with --only baseline',
    );
  });

  it('take Postgres from the flag, then BENCH_, TEST_ and plain DATABASE_URL, then the fallback', () => {
    const env = { TEST_DATABASE_URL: 'postgresql://t', DATABASE_URL: 'postgresql://d' };
    expect(benchDatabaseUrl('postgresql://flag', env, 'postgresql://f')).toBe('postgresql://flag');
    expect(benchDatabaseUrl(undefined, { ...env, BENCH_DATABASE_URL: 'postgresql://b' }, 'postgresql://f')).toBe(
      'postgresql://b',
    );
    expect(benchDatabaseUrl(undefined, env, 'postgresql://f')).toBe('postgresql://t');
    expect(benchDatabaseUrl(undefined, {}, 'postgresql://f')).toBe('postgresql://f');
  });

  it('parse each benchmark’s options with its own usage text', () => {
    expect(parseRenewalOptions(['--subscriptions', '2000', '--only', 'scheduler'], {})).toMatchObject({
      subscriptions: 2000,
      batchSize: 200,
      sides: 'scheduler',
    });
    expect(parseInvoiceOptions(['--invoices', '100', '--warmup', '0'], {})).toMatchObject({
      invoices: 100,
      warmup: 0,
      sides: 'both',
    });
    expect(parseOptions(['--duration', '5'], {})).toMatchObject({
      durationSeconds: 5,
      connections: 32,
      emptyAccounts: false,
    });
    expect(parseOptions(['--empty-accounts'], {})).toMatchObject({ emptyAccounts: true });
    // The scratch schema of --baseline-only has no platform to seed the sets through.
    expect(parseOptions(['--baseline-only'], {})).toMatchObject({ emptyAccounts: true, baselineOnly: true });

    const tooManyWarmups = mistake(() => parseInvoiceOptions(['--invoices', '10', '--warmup', '20'], {}));
    expect(tooManyWarmups.message).toBe('--warmup cannot exceed --invoices (it reuses their charges)');
    expect(tooManyWarmups.usage).toMatch(/^Usage: npm run bench:invoices/);
    expect(mistake(() => parseRenewalOptions(['--bogus'], {})).usage).toMatch(/^Usage: npm run bench:renewals/);
    expect(mistake(() => parseOptions(['--in-process', '--cpu-prof', 'x'], {})).message).toBe(
      '--cpu-prof profiles the gateway and service processes: not with --in-process or --baseline-only',
    );
  });
});

describe('bench:billing-run’s command line', () => {
  it('defaults to 100,000 subscriptions and takes a small N for a quick run', () => {
    const defaults = parseBillingRunOptions([], {});
    expect([defaults.subscriptions, defaults.leadSeconds, defaults.baselineBatch, defaults.json]).toEqual([
      100_000,
      5,
      500,
      false,
    ]);
    const quick = parseBillingRunOptions(['--subscriptions', '2001', '--json'], {});
    expect([quick.subscriptions, quick.json]).toEqual([2000, true]);
  });

  it('measures both shapes by default, the production shape first, or the one --shape names; takes node options', () => {
    expect(parseBillingRunOptions([], {}).shapes).toEqual(['processes', 'in-process']);
    expect(parseBillingRunOptions(['--shape', 'both'], {}).shapes).toEqual(['processes', 'in-process']);
    expect(parseBillingRunOptions(['--shape', 'processes'], {}).shapes).toEqual(['processes']);
    expect(parseBillingRunOptions(['--shape', 'in-process'], {}).shapes).toEqual(['in-process']);
    expect(parseBillingRunOptions(['--shape', 'both', '--cpu-prof', '/tmp/p'], {})).toMatchObject({
      shapes: ['processes', 'in-process'],
      cpuProfDir: '/tmp/p',
    });
    expect(
      parseBillingRunOptions(['--shape', 'processes', '--server-node-options=--max-semi-space-size=32'], {}),
    ).toMatchObject({ shapes: ['processes'], serverNodeOptions: '--max-semi-space-size=32' });
    expect(parseBillingRunOptions([], {}).serverNodeOptions).toBeUndefined();
  });

  it('refuses an unknown shape, and a profile or node options of the in-process shape alone', () => {
    for (const shape of ['inprocess', 'toString', ''])
      expect(mistake(() => parseBillingRunOptions(['--shape', shape], {})).message).toBe(
        `--shape must be processes, in-process or both, got "${shape}"`,
      );
    expect(mistake(() => parseBillingRunOptions(['--shape', 'in-process', '--cpu-prof', '/tmp/p'], {})).message).toBe(
      '--cpu-prof profiles the service processes: not with --shape in-process',
    );
    expect(
      mistake(() => parseBillingRunOptions(['--shape', 'in-process', '--server-node-options=--x'], {})).message,
    ).toBe('--server-node-options is for the gateway and service processes: not with --shape in-process');
  });

  it('refuses a subscription count out of range, naming the flag', () => {
    expect(mistake(() => parseBillingRunOptions(['--subscriptions', '0'], {})).message).toBe(
      '--subscriptions must be an integer from 2 to 200000, got "0"',
    );
  });
});
