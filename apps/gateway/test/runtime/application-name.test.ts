/**
 * The gateway's connections (rate limits, idempotency keys) show in pg_stat_activity under the
 * name of its schema, as every service's show under theirs: an operator sees whose they are.
 */
import type { RunningGateway } from '@billing/gateway';
import { createTestSchema, type TestSchema } from '@billing/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingLogger } from '../framework/support/recording-logger.js';
import { startGatewayAlone } from '../support/gateway-alone.js';

let schema: TestSchema;
let gateway: RunningGateway;

beforeAll(async () => {
  schema = await createTestSchema('gateway');
  gateway = await startGatewayAlone({
    databaseUrl: schema.databaseUrl,
    schema: schema.schema,
    logger: new RecordingLogger(),
  });
});

afterAll(async () => {
  await gateway?.stop();
  await schema?.drop();
});

describe("the gateway's database connections", () => {
  it('carry its schema as their application_name', async () => {
    const admin = new pg.Client({ connectionString: schema.databaseUrl });
    await admin.connect();
    try {
      // The readiness probe queries the rate limits' pool: it holds a connection now.
      expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
      const { rows } = await admin.query<{ n: string }>(
        'select count(*) as n from pg_stat_activity where application_name = $1',
        [schema.schema],
      );
      expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(1);
    } finally {
      await admin.end();
    }
  });
});
