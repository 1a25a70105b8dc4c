import { startLocalPlatform } from '@billing/local';
import { BENCH_RATE_LIMIT_PER_MINUTE, type BenchPlatform, benchOrganizationName } from './bench-platform.js';

export interface InProcessPlatformOptions {
  /** NATS JetStream for the events; unset: the in-process event bus (same delivery contract, no broker). */
  natsUrl?: string | undefined;
  /** Where the platform writes its files (mails as .eml); unset: ./.data. */
  dataDir?: string | undefined;
}

/**
 * `--in-process`: the platform in the bench process (`startLocalPlatform` from `@billing/local`):
 * gateway and all five services in one event loop, gRPC over 127.0.0.1, on the given database,
 * events through the in-process event bus (needs no NATS) or, given `natsUrl`, through JetStream
 * as deployed. Either way it is not how the platform is deployed: one process for everything.
 */
export async function startInProcessPlatform(
  databaseUrl: string,
  options: InProcessPlatformOptions = {},
): Promise<BenchPlatform> {
  const platform = await startLocalPlatform({
    databaseUrl,
    gatewayPort: 0,
    logLevel: 'warn',
    ...(options.natsUrl ? { natsUrl: options.natsUrl } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  try {
    const { organizationId, token } = await platform.createOrganization({
      name: benchOrganizationName(),
      rate_limit_per_minute: BENCH_RATE_LIMIT_PER_MINUTE,
    });
    return {
      label: options.natsUrl
        ? 'platform in-process (gateway + five services, NATS JetStream)'
        : 'platform in-process (gateway + gRPC + accounts)',
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
