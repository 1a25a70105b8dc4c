import { startLocalPlatform } from '@billing/local';
import { BENCH_RATE_LIMIT_PER_MINUTE, type BenchPlatform, benchOrganizationName } from './bench-platform.js';

/**
 * `--in-process`: the platform in the bench process (`startLocalPlatform` from `@billing/local`):
 * gateway and all five services in one event loop, gRPC over 127.0.0.1, the in-process event bus,
 * on the given database. Needs no NATS, but it is not how the platform is deployed.
 */
export async function startInProcessPlatform(databaseUrl: string): Promise<BenchPlatform> {
  const platform = await startLocalPlatform({ databaseUrl, gatewayPort: 0, logLevel: 'warn' });
  try {
    const { organizationId, token } = await platform.createOrganization({
      name: benchOrganizationName(),
      rate_limit_per_minute: BENCH_RATE_LIMIT_PER_MINUTE,
    });
    return {
      label: 'platform in-process (gateway + gRPC + accounts)',
      gatewayUrl: platform.gatewayUrl,
      accountsSchema: 'accounts',
      setSchemas: { subscriptions: 'subscriptions', invoicing: 'invoicing' },
      organizationId,
      token,
      servers: [{ name: 'bench process', pid: process.pid }],
      stop: () => platform.stop(),
    };
  } catch (error) {
    await platform.stop();
    throw error;
  }
}
