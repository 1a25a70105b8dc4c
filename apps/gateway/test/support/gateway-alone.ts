import { systemClock } from '@billing/clock';
import { type GatewayOptions, type RunningGateway, startGateway } from '@billing/gateway';

/**
 * The gateway on its own, for what it does before any service is called (its database, probes,
 * shutdown): the services' addresses lead nowhere, which is never noticed, as the gRPC clients
 * connect on first use.
 */
export function startGatewayAlone(
  options: Pick<GatewayOptions, 'databaseUrl' | 'logger'> & Partial<Pick<GatewayOptions, 'schema'>>,
): Promise<RunningGateway> {
  return startGateway({
    host: '127.0.0.1',
    port: 0,
    services: {
      accounts: '127.0.0.1:1',
      subscriptions: '127.0.0.1:1',
      invoicing: '127.0.0.1:1',
      analytics: '127.0.0.1:1',
      payments: '127.0.0.1:1',
    },
    clock: systemClock,
    ...options,
  });
}
