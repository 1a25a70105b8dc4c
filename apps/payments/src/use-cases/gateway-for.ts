import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import type { GatewayAdapter } from '../domain/gateway-adapter.js';
import type { PaymentsDeps } from './deps.js';

/** Gateways built so far that need an organization's credentials. */
const NEEDS_CREDENTIALS = new Set(['cardgw_a', 'cardgw_a_new']);

/**
 * The adapter of `gateway` for the calling organization. noop needs no credentials; cardgw_a and
 * cardgw_a_new need the organization's (400 on `gateway` without them, gaps.md §11); the gateways
 * not built yet answer 400 when used (gateways/unavailable-gateway).
 */
export async function gatewayFor(
  deps: PaymentsDeps,
  context: RequestContext,
  gateway: string,
): Promise<GatewayAdapter> {
  if (!NEEDS_CREDENTIALS.has(gateway)) return deps.gateways(gateway, null);
  const credentials = await deps.directory.gatewayCredentials(context, gateway);
  if (!credentials) {
    throw AppError.invalidField(
      'gateway',
      `The organization has no credentials for the payment gateway ${gateway}; an operator sets them with the admin command line (set-gateway-credentials).`,
    );
  }
  return deps.gateways(gateway, credentials);
}
