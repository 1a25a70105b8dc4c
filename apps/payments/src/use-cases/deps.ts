import type { Clock } from '@billing/clock';
import type { Logger } from '@billing/observability';
import type { CommittedEventsListener } from '@billing/runtime';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Directory, Invoicing } from '../domain/directory.js';
import type { GatewayAdapter } from '../domain/gateway-adapter.js';

/** Builds the adapter of `gateway` for an organization's credentials (null: it has none). */
export type GatewayFactory = (gateway: string, credentials: Record<string, string> | null) => GatewayAdapter;

/** What the payments use cases need. */
export interface PaymentsDeps {
  orm: MikroORM;
  clock: Clock;
  logger: Logger;
  directory: Directory;
  invoicing: Invoicing;
  gateways: GatewayFactory;
  /** Hands committed payment_card events to the accounts read model (read-your-writes). */
  committedEvents?: CommittedEventsListener | undefined;
  /** The crash test's hook (payments-config PAYMENTS_TEST_CRASH_AFTER_GATEWAY_CALL). */
  afterGatewayCall?: (() => void) | undefined;
}
