import type { GatewayAdapter } from '../domain/gateway-adapter.js';
import type { GatewayFactory } from '../use-cases/deps.js';
import { noopGateway } from './noop-gateway.js';
import { stripeGateway } from './stripe-gateway.js';
import { unavailableGateway } from './unavailable-gateway.js';

/** The adapters of this installation, by gateway name (docs/api.md "Payments"). */
export function gatewayFactory(settings: { cardgwAApiUrl: string }): GatewayFactory {
  const noop = noopGateway();
  return (gateway, credentials): GatewayAdapter => {
    if (gateway === 'noop') return noop;
    if ((gateway === 'cardgw_a' || gateway === 'cardgw_a_new') && credentials) {
      return stripeGateway({
        gateway,
        secretKey: credentials.secret_key ?? '',
        webhookSecret: credentials.webhook_secret ?? '',
        apiUrl: settings.cardgwAApiUrl,
      });
    }
    return unavailableGateway(gateway);
  };
}
