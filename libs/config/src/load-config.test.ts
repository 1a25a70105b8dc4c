import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { port, serviceEnv } from './common-env.js';
import { ConfigError, exitOnConfigError, loadConfig } from './load-config.js';
import { serviceProcessEnv } from './service-process-env.js';

const schema = z.object({ DATABASE_URL: serviceEnv.DATABASE_URL, GRPC_PORT: port(50051) });

describe('loadConfig', () => {
  it('parses and applies defaults', () => {
    const config = loadConfig('accounts', schema, { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/billing' });
    expect(config).toEqual({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/billing', GRPC_PORT: 50051 });
  });

  it('names every bad variable', () => {
    expect(() => loadConfig('accounts', schema, { DATABASE_URL: 'mysql://x', GRPC_PORT: 'abc' })).toThrowError(
      ConfigError,
    );
    expect(() => loadConfig('accounts', schema, { GRPC_PORT: '70000' })).toThrowError(
      /^accounts: invalid configuration\n {2}DATABASE_URL: .+\n {2}GRPC_PORT: .+$/,
    );
  });

  it('says a required variable is not set rather than what type zod expected', () => {
    expect(() => loadConfig('accounts', schema, {})).toThrowError(
      new ConfigError('accounts: invalid configuration\n  DATABASE_URL: required, but not set'),
    );
  });
});

describe('exitOnConfigError', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('prints only the message of a ConfigError and exits 1', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => {
      throw new Error('exited');
    });
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => exitOnConfigError(() => loadConfig('accounts', schema, {}))).toThrowError('exited');
    expect(printed.mock.calls).toEqual([['accounts: invalid configuration\n  DATABASE_URL: required, but not set']]);
    expect(exit.mock.calls).toEqual([[1]]);
  });

  it('returns the configuration, and lets any other error through', () => {
    expect(exitOnConfigError(() => 42)).toBe(42);
    expect(() =>
      exitOnConfigError(() => {
        throw new TypeError('a bug');
      }),
    ).toThrowError(TypeError);
  });
});

describe('serviceProcessEnv', () => {
  it('defaults schema, port and migrations, and requires the database and NATS', () => {
    const config = loadConfig('invoicing', serviceProcessEnv('invoicing', 50054), {
      DATABASE_URL: 'postgres://postgres@db:5432/billing',
      NATS_URL: 'nats://nats:4222',
    });
    expect(config).toEqual({
      DATABASE_URL: 'postgres://postgres@db:5432/billing',
      NATS_URL: 'nats://nats:4222',
      DB_SCHEMA: 'invoicing',
      GRPC_HOST: '0.0.0.0',
      GRPC_PORT: 50054,
      METRICS_HOST: '0.0.0.0',
      METRICS_PORT: 9403,
      LOG_LEVEL: 'info',
      MIGRATE_ON_START: true,
    });
    expect(() => loadConfig('invoicing', serviceProcessEnv('invoicing', 50054), {})).toThrowError(
      /invoicing: invalid configuration\n {2}DATABASE_URL: .+\n {2}NATS_URL: .+/,
    );
  });
});
