export { type GatewayConfig, loadGatewayConfig } from './config.js';
export { gatewayOpenApiDocument } from './openapi/gateway-openapi-document.js';
export { DEFAULT_AUTH_CACHE_TTL_MS, type GatewayOptions, type RunningGateway, startGateway } from './start-gateway.js';
