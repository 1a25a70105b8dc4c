import { exitOnConfigError, loadConfig, port } from '@billing/config';
import { z } from 'zod';
import { ensureDemoOrganization } from './demo-organization.js';
import { checkServicesConfig, type LocalPlatform, startLocalPlatform } from './local-platform.js';

const env = exitOnConfigError(() => {
  const own = loadConfig(
    'npm start',
    z.object({
      DATABASE_URL: z.string().min(1).optional(),
      NATS_URL: z.string().min(1).optional(),
      HOST: z.string().default('127.0.0.1'),
      PORT: port(8000),
      // Unset: no metrics port (a second `npm start` would collide on it).
      METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
      DATA_DIR: z.string().default('.data'),
      LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
    }),
  );
  checkServicesConfig(process.env);
  return own;
});

// Ctrl-C, a stop request, or the terminal closing: services first, then the bus, PostgreSQL last.
// Heard from the start and while stopping, so no signal can kill this process and leave the embedded
// PostgreSQL (in a process group of its own) running without it; one arriving during start-up stops
// the platform as soon as it is up.
let platform: LocalPlatform | undefined;
let stopRequested = false;
let stopping = false;
const stop = async () => {
  stopRequested = true;
  if (stopping || !platform) return;
  stopping = true;
  console.log('Stopping...');
  await platform.stop();
  process.exit(0);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop());

const started = await startLocalPlatform({
  ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
  ...(env.NATS_URL ? { natsUrl: env.NATS_URL } : {}),
  gatewayHost: env.HOST,
  gatewayPort: env.PORT,
  dataDir: env.DATA_DIR,
  logLevel: env.LOG_LEVEL,
  ...(env.METRICS_PORT !== undefined ? { metrics: { host: env.HOST, port: env.METRICS_PORT } } : {}),
});
const demo = await ensureDemoOrganization(started, env.DATA_DIR);
platform = started;
if (stopRequested) await stop();

console.log(`
Billing platform is running.

  API base URL   ${platform.gatewayUrl}/api/v1/
  API console    ${platform.gatewayUrl}/api/docs/
  OpenAPI        ${platform.gatewayUrl}/api/schema/${platform.metricsUrl ? `\n  Metrics        ${platform.metricsUrl}/metrics` : ''}
  Database       ${env.DATABASE_URL ? 'DATABASE_URL' : `embedded PostgreSQL (data in ${platform.embeddedDataLocation})`}
  Events         ${env.NATS_URL ? `NATS JetStream at ${env.NATS_URL}` : 'in-process bus (set NATS_URL for JetStream)'}

  Demo organization ${demo.organizationId}
  Token             ${demo.token}

  curl -H "Authorization: Token ${demo.token}" -H "X-Client-System: curl" ${platform.gatewayUrl}/api/v1/accounts/

Press Ctrl-C to stop.
`);
