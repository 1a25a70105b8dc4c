import { loadConfig } from '@billing/config';
import { z } from 'zod';

const schema = z.object({
  /** The accounts service: organizations (clock, dunning schedule), sealed gateway credentials, accounts. */
  ACCOUNTS_ADDRESS: z.string().min(1).default('127.0.0.1:50051'),
  /** The invoicing service: marks invoices paid, lists open card invoices for the test clock. */
  INVOICING_ADDRESS: z.string().min(1).default('127.0.0.1:50053'),
  /** Opens the gateway credentials the accounts admin command line sealed (libs/config sealed-secret). */
  GATEWAY_CREDENTIALS_KEY: z.string().optional(),
  /** Where cardgw_a and cardgw_a_new (Stripe's API) are reached; the default is Stripe's own. */
  CARDGW_A_API_URL: z.url().default('https://api.stripe.com'),
  /** Pause between passes of the charge runner (real-clock organizations' due attempts, settlements). */
  PAYMENTS_WORKER_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  /** How many payment attempts run at once (each waits for its gateway). */
  PAYMENTS_CHARGE_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(64),
  /**
   * Test hook of the crash test (docs/architecture.md "Charging"): "1" makes the process exit right
   * after a gateway answered a charge and before its outcome is committed.
   */
  PAYMENTS_TEST_CRASH_AFTER_GATEWAY_CALL: z.enum(['0', '1']).default('0'),
});

export interface PaymentsConfig {
  accountsAddress: string;
  invoicingAddress: string;
  credentialsKey: string | undefined;
  cardgwAApiUrl: string;
  workerIntervalMs: number;
  chargeConcurrency: number;
  crashAfterGatewayCall: boolean;
}

export function loadPaymentsConfig(env: NodeJS.ProcessEnv = process.env): PaymentsConfig {
  const config = loadConfig('payments', schema, env);
  return {
    accountsAddress: config.ACCOUNTS_ADDRESS,
    invoicingAddress: config.INVOICING_ADDRESS,
    credentialsKey: config.GATEWAY_CREDENTIALS_KEY,
    cardgwAApiUrl: config.CARDGW_A_API_URL,
    workerIntervalMs: config.PAYMENTS_WORKER_INTERVAL_MS,
    chargeConcurrency: config.PAYMENTS_CHARGE_CONCURRENCY,
    crashAfterGatewayCall: config.PAYMENTS_TEST_CRASH_AFTER_GATEWAY_CALL === '1',
  };
}
