import { connectServiceClients } from '../clients/service-clients.js';
import { apiDocumentOf } from '../http/create-http-app.js';
import { allRoutes } from '../routes/index.js';
import type { OpenApiDocument } from './build-openapi-document.js';
import { REQUEST_EXAMPLES } from './request-examples.js';

/**
 * The document the gateway serves at /api/schema/, built without starting it: the typed client
 * (libs/client) is generated from it. Routes only keep their gRPC clients for later calls, and a
 * client connects on its first call, so these never connect anywhere.
 */
export function gatewayOpenApiDocument(): OpenApiDocument {
  const unused = '127.0.0.1:1';
  const clients = connectServiceClients({
    accounts: unused,
    subscriptions: unused,
    invoicing: unused,
    analytics: unused,
    payments: unused,
  });
  try {
    return apiDocumentOf(allRoutes(clients), undefined, REQUEST_EXAMPLES);
  } finally {
    clients.close();
  }
}
