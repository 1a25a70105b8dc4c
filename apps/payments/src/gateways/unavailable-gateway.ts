import { AppError } from '@billing/errors';
import type { GatewayAdapter } from '../domain/gateway-adapter.js';

/**
 * cardgw_b, cardgw_c and cardgw_c_easy are not built yet (docs/api.md "Payments" says what each
 * needs): every use of them answers 400 on `gateway`, after the request's own checks.
 */
export function unavailableGateway(gateway: string): GatewayAdapter {
  const refuse = async (): Promise<never> => {
    throw AppError.invalidField('gateway', `The payment gateway ${gateway} is not available in this installation.`);
  };
  return {
    gateway,
    retrieveCard: refuse,
    startRegistration: refuse,
    charge: refuse,
    parseCallback: refuse,
  };
}
