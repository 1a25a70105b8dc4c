/**
 * The gateway's own pool (rate-limit counters) loses an idle connection when the server cuts it
 * (restart, failover, an operator's pg_terminate_backend): the gateway must log it once, briefly,
 * and go on answering. pg hangs the whole client (configuration, parser state) on that error, so
 * the line keeps only its message and code.
 */
import type { RunningGateway } from '@billing/gateway';
import { createTestSchema, type TestSchema, uniqueName, waitFor } from '@billing/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingLogger } from '../framework/support/recording-logger.js';
import { startGatewayAlone } from '../support/gateway-alone.js';

const logger = new RecordingLogger();

let schema: TestSchema;
let gateway: RunningGateway;
const applicationName = uniqueName('gateway-idle');

beforeAll(async () => {
  schema = await createTestSchema('gateway');
  const url = new URL(schema.databaseUrl);
  url.searchParams.set('application_name', applicationName);
  gateway = await startGatewayAlone({ databaseUrl: url.toString(), schema: schema.schema, logger });
});

afterAll(async () => {
  await gateway?.stop();
  await schema?.drop();
});

describe('an idle connection of the gateway pool cut by the server', () => {
  it('is logged once with its message and code only, and the gateway keeps answering', async () => {
    const admin = new pg.Client({ connectionString: schema.databaseUrl });
    await admin.connect();
    let cut: number;
    try {
      const { rows } = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [applicationName],
      );
      cut = rows.length;
    } finally {
      await admin.end();
    }
    expect(cut).toBeGreaterThan(0);

    const lost = () => logger.entries.filter((entry) => entry.message === 'idle database connection lost');
    await waitFor(() => lost().length === cut, { timeoutMs: 5_000, description: 'one log line per cut connection' });
    expect(lost().map((entry) => [entry.level, entry.fields])).toEqual(
      Array.from({ length: cut }, () => [
        'warn',
        { err: { message: 'terminating connection due to administrator command', code: '57P01' } },
      ]),
    );

    const response = await fetch(`${gateway.url}/api/v1/accounts/`);
    expect(response.status).toBe(401);
  });
});
