export {
  BillingApiError,
  type BillingClient,
  type BillingClientOptions,
  createBillingClient,
  unwrap,
} from './billing-client.js';
export type { components, operations, paths } from './gen/api.js';
