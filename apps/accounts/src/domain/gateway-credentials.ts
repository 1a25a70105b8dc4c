import type { FieldViolation } from '@billing/errors';
import { PAYMENT_GATEWAYS, type PaymentGateway } from '@billing/reference-data';

/**
 * What each payment gateway needs from an organization to work (docs/api.md "Payments"). `noop`
 * needs nothing. cardgw_a and cardgw_a_new speak Stripe's API: a secret API key and the signing
 * secret of the webhook endpoint the gateway calls back. The others are not available in this
 * installation yet; their credentials are kept as given for when they are.
 */
export const GATEWAY_CREDENTIAL_FIELDS: Record<PaymentGateway, readonly string[]> = {
  noop: [],
  cardgw_a: ['secret_key', 'webhook_secret'],
  cardgw_a_new: ['secret_key', 'webhook_secret'],
  cardgw_b: [],
  cardgw_c: [],
  cardgw_c_easy: [],
};

export function isPaymentGateway(name: string): name is PaymentGateway {
  return (PAYMENT_GATEWAYS as readonly string[]).includes(name);
}

/** The problems of credentials given for `gateway` (`name=value` pairs already split). */
export function gatewayCredentialViolations(gateway: string, credentials: Record<string, string>): FieldViolation[] {
  if (!isPaymentGateway(gateway)) {
    return [
      { field: 'gateway', description: `"${gateway}" is not a valid choice; one of ${PAYMENT_GATEWAYS.join(', ')}.` },
    ];
  }
  if (gateway === 'noop') return [{ field: 'gateway', description: 'The noop gateway needs no credentials.' }];
  const required = GATEWAY_CREDENTIAL_FIELDS[gateway];
  const violations: FieldViolation[] = [];
  for (const name of required) {
    if (!credentials[name]) violations.push({ field: 'credential', description: `${gateway} needs ${name}=<value>.` });
  }
  if (required.length > 0) {
    for (const name of Object.keys(credentials)) {
      if (!required.includes(name)) {
        violations.push({
          field: 'credential',
          description: `${gateway} takes ${required.join(' and ')}, not ${name}.`,
        });
      }
    }
  } else if (Object.keys(credentials).length === 0) {
    violations.push({ field: 'credential', description: 'Give at least one --credential name=value.' });
  }
  return violations;
}
