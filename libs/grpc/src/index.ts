export { checkHealth } from './check-health.js';
export {
  createGrpcClient,
  DEFAULT_DEADLINE_MS,
  type GrpcClient,
  type GrpcClientConstructor,
  type GrpcClientOptions,
  type UnaryCallOptions,
} from './client.js';
export type { GrpcLogger } from './grpc-logger.js';
export {
  grpcClientHandledTotal,
  grpcClientHandlingSeconds,
  grpcServerHandledTotal,
  grpcServerHandlingSeconds,
} from './grpc-metrics.js';
export {
  HealthRegistry,
  type HealthWatcher,
  OVERALL,
  type ReportedStatus,
  ServingStatus,
} from './health-registry.js';
export { fromMetadata, MetadataKeys, toMetadata } from './metadata.js';
export { type GrpcServerOptions, type RunningGrpcServer, startGrpcServer } from './server.js';
export { serviceErrorToAppError } from './service-error.js';
export type { RequestOf, ResponseOf, UnaryMethodName } from './service-types.js';
export {
  decodeStatusDetails,
  ERROR_DETAIL_TYPE_URL,
  encodeStatusDetails,
  STATUS_DETAILS_KEY,
  type StatusDetails,
} from './status-details.js';
export { type GrpcService, type UnaryHandler, type UnaryHandlers, unaryService } from './unary-service.js';
