import { createHash } from 'node:crypto';
import type { GatewayAdapter } from '../domain/gateway-adapter.js';
import type { GatewayFactory } from '../use-cases/deps.js';
import { noopGateway } from './noop-gateway.js';
import { stripeGateway } from './stripe-gateway.js';
import { unavailableGateway } from './unavailable-gateway.js';

/**
 * The adapters of this installation, by gateway name (docs/api.md "Payments"). An adapter is made
 * once per gateway and credentials and then reused, so its client keeps its connections to the
 * gateway alive between charges (a new client per charge would open a new connection each time).
 * Credentials changed by an operator make a new adapter; the cache is keyed by their digest.
 */
export function gatewayFactory(settings: { cardgwAApiUrl: string }): GatewayFactory {
  const noop = noopGateway();
  const built = new Map<string, GatewayAdapter>();
  return (gateway, credentials): GatewayAdapter => {
    if (gateway === 'noop') return noop;
    if ((gateway === 'cardgw_a' || gateway === 'cardgw_a_new') && credentials) {
      const key = createHash('sha256')
        .update(JSON.stringify([gateway, credentials.secret_key ?? '', credentials.webhook_secret ?? '']))
        .digest('hex');
      let adapter = built.get(key);
      if (!adapter) {
        adapter = stripeGateway({
          gateway,
          secretKey: credentials.secret_key ?? '',
          webhookSecret: credentials.webhook_secret ?? '',
          apiUrl: settings.cardgwAApiUrl,
        });
        built.set(key, adapter);
      }
      return adapter;
    }
    return unavailableGateway(gateway);
  };
}
