import { loadConfig } from '@billing/config';
import { z } from 'zod';

const schema = z.object({
  /** The accounts service, whose read model of subscriptions gets each change right after its commit. */
  ACCOUNTS_ADDRESS: z.string().min(1).default('127.0.0.1:50051'),
});

export interface SubscriptionsConfig {
  accountsAddress: string;
}

export function loadSubscriptionsConfig(env: NodeJS.ProcessEnv = process.env): SubscriptionsConfig {
  const config = loadConfig('subscriptions', schema, env);
  return { accountsAddress: config.ACCOUNTS_ADDRESS };
}
