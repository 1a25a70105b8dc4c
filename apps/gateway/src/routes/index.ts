import type { ServiceClients } from '../clients/service-clients.js';
import type { Route } from '../http/index.js';
import { accountRoutes } from './accounts/account-routes.js';
import { paymentGatewayRoutes } from './accounts/payment-gateway-routes.js';
import { catalogRoutes } from './catalog/catalog-routes.js';
import { contractRoutes } from './contracts/contract-routes.js';
import { recipientRoutes } from './recipients/recipient-routes.js';

/** Every REST operation the gateway serves. */
export function allRoutes(clients: ServiceClients): Route[] {
  return [
    ...accountRoutes(clients),
    ...paymentGatewayRoutes(clients),
    ...recipientRoutes(clients),
    ...catalogRoutes(clients),
    ...contractRoutes(clients),
  ];
}
