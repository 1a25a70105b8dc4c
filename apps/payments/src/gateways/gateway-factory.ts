import type { GatewayAdapter } from '../domain/gateway-adapter.js';
import type { GatewayFactory } from '../use-cases/deps.js';
import { noopGateway } from './noop-gateway.js';
import { unavailableGateway } from './unavailable-gateway.js';

/** The adapters of this installation, by gateway name (docs/api.md "Payments"). */
export function gatewayFactory(): GatewayFactory {
  const noop = noopGateway();
  return (gateway): GatewayAdapter => {
    if (gateway === 'noop') return noop;
    return unavailableGateway(gateway);
  };
}
