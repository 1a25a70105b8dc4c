import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { accountsModule as accountsDefaults, createAccountsModule, createOrganization } from '@billing/accounts';
import { analyticsModule } from '@billing/analytics';
import { type Clock, systemClock } from '@billing/clock';
import { type EventBus, InProcessBus, JetStreamBus, watchConsumerLag } from '@billing/events';
import { type RunningGateway, startGateway } from '@billing/gateway';
import { createInvoicingModule, invoicingModule, loadMailConfig } from '@billing/invoicing';
import { createLogger, initTracing, type Logger, startMetricsServer } from '@billing/observability';
import { createPaymentsModule, paymentsModule } from '@billing/payments';
import { type RunningService, type ServiceModule, startService } from '@billing/runtime';
import { createSubscriptionsModule, subscriptionsModule } from '@billing/subscriptions';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.js';

/**
 * Every service's own settings in `env` (SCHEDULER_CONCURRENCY, WEBHOOKS_*, SMTP_URL, ...), checked
 * before the platform starts: throws ConfigError naming the first one out of range.
 */
export function checkServicesConfig(env: NodeJS.ProcessEnv): void {
  for (const module of [accountsDefaults, subscriptionsModule, invoicingModule, analyticsModule, paymentsModule])
    module.checkConfig?.(env);
}

export interface LocalPlatformOptions {
  /** Unset: an embedded PostgreSQL with its data in `dataDir`. */
  databaseUrl?: string;
  /** Unset: an in-process bus with the same delivery contract as JetStream. */
  natsUrl?: string;
  gatewayHost?: string;
  /** 0 picks a free port. */
  gatewayPort?: number;
  dataDir?: string;
  logLevel?: string;
  clock?: Clock;
  /** Serve GET /metrics, /healthz and /readyz (of every service and the gateway) here; unset: not at all. */
  metrics?: { host: string; port: number };
}

export interface LocalPlatform {
  gatewayUrl: string;
  /** With `metrics`: `http://host:port` of /metrics, /healthz and /readyz. */
  metricsUrl?: string;
  databaseUrl: string;
  /** With the embedded PostgreSQL: where its data is, for people (see EmbeddedDatabase). */
  embeddedDataLocation?: string;
  createOrganization(settings: {
    name: string;
    rate_limit_per_minute?: number;
  }): Promise<{ organizationId: string; token: string }>;
  stop(): Promise<void>;
}

/**
 * The whole platform in one process: every service on its own ephemeral gRPC port and own schema,
 * the gateway in front, talking over real gRPC exactly as in production. Only the process
 * boundary (and, without NATS_URL, the broker) differs from the Kubernetes shape.
 */
export async function startLocalPlatform(options: LocalPlatformOptions = {}): Promise<LocalPlatform> {
  const logLevel = options.logLevel ?? 'info';
  const logger: Logger = createLogger('local', logLevel);
  const clock = options.clock ?? systemClock;
  const dataDir = options.dataDir ?? '.data';
  mkdirSync(dataDir, { recursive: true });
  // One process, one tracer provider: spans of every service under service.name `billing`
  // (OTEL_SERVICE_NAME overrides); off unless an OTLP endpoint is configured.
  const tracing = await initTracing({ serviceName: 'billing', logger });

  const stack: Array<() => Promise<void>> = [tracing.shutdown];
  const stopAll = async () => {
    for (const stop of stack.reverse())
      await stop().catch((error: unknown) => logger.error({ err: error }, 'stop failed'));
  };
  try {
    let embedded: EmbeddedDatabase | undefined;
    if (!options.databaseUrl) {
      embedded = await startEmbeddedPostgres(dataDir);
      stack.push(() => embedded!.stop());
    }
    const databaseUrl = options.databaseUrl ?? embedded!.url;
    const bus: EventBus = options.natsUrl
      ? await JetStreamBus.connect({ servers: options.natsUrl, name: 'local-platform', logger })
      : new InProcessBus();
    stack.push(() => bus.close());

    const services = new Map<string, RunningService>();
    // Services started after accounts reach it at its ephemeral port (subscriptions and invoicing feed
    // its read model and ask it about accounts); invoice and payment mails go to the data folder.
    const mail = { ...loadMailConfig(), outboxDir: path.resolve(dataDir, 'mail-outbox') };
    const modulesAfter = (accounts: RunningService) => [
      createSubscriptionsModule({ config: { accountsAddress: accounts.address } }),
      createInvoicingModule({ config: { accountsAddress: accounts.address }, mail }),
      analyticsModule,
    ];
    // Payments settles card payments with invoicing, so it starts once invoicing has its address.
    const modulesAfterInvoicing = (invoicing: RunningService) => [
      createPaymentsModule({ config: { accountsAddress: accounts0(), invoicingAddress: invoicing.address }, mail }),
    ];
    const accounts0 = () => services.get('accounts')!.address;
    // Subscription notifications go to the same folder as invoice mails.
    const accountsModule = createAccountsModule({
      mail: { ...loadMailConfig(process.env, 'accounts'), outboxDir: path.resolve(dataDir, 'mail-outbox') },
    });
    const modules: ServiceModule[] = [accountsModule];
    for (let index = 0; index < modules.length; index++) {
      const module = modules[index]!;
      const service = await startService(module, {
        databaseUrl,
        grpcHost: '127.0.0.1',
        grpcPort: 0,
        clock,
        logger: createLogger(module.name, logLevel),
        bus,
        migrateOnStart: true,
      });
      services.set(module.name, service);
      stack.push(() => service.stop());
      if (module === accountsModule) modules.push(...modulesAfter(service));
      if (module.name === 'invoicing') modules.push(...modulesAfterInvoicing(service));
    }
    const gateway: RunningGateway = await startGateway({
      host: options.gatewayHost ?? '127.0.0.1',
      port: options.gatewayPort ?? 0,
      databaseUrl,
      services: {
        accounts: services.get('accounts')!.address,
        subscriptions: services.get('subscriptions')!.address,
        invoicing: services.get('invoicing')!.address,
        analytics: services.get('analytics')!.address,
        payments: services.get('payments')!.address,
      },
      clock,
      logger: createLogger('gateway', logLevel),
    });
    stack.push(() => gateway.stop());
    let metricsUrl: string | undefined;
    if (options.metrics) {
      if (bus instanceof JetStreamBus) {
        const unwatch = watchConsumerLag(bus, logger);
        stack.push(async () => void unwatch());
      }
      // One process, one registry: every service's metrics, told apart by their labels.
      const metrics = await startMetricsServer({
        ...options.metrics,
        readiness: [...services.values()].flatMap((service) =>
          service.readiness.map((check) => ({ ...check, name: `${service.name}_${check.name}` })),
        ),
        onError: (error) => logger.error({ err: error }, 'metrics request failed'),
      });
      stack.push(() => metrics.close());
      metricsUrl = metrics.url;
    }

    const accounts = services.get('accounts')!;
    return {
      gatewayUrl: gateway.url,
      ...(metricsUrl ? { metricsUrl } : {}),
      databaseUrl,
      ...(embedded ? { embeddedDataLocation: embedded.dataLocation } : {}),
      async createOrganization(settings) {
        const { organization, token } = await createOrganization({ orm: accounts.orm, clock }, settings);
        return { organizationId: organization.id, token: token.token };
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
