import { healthV1 } from '@billing/proto';
import { type handleUnaryCall, Server, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import type { GrpcLogger } from './grpc-logger.js';
import { instrumentUnaryHandler } from './grpc-metrics.js';
import { HealthRegistry, OVERALL, ServingStatus } from './health-registry.js';
import { healthServiceImplementation } from './health-service.js';
import { isUnaryMethod } from './service-types.js';
import { unaryCallHandler } from './unary-call-handler.js';
import type { GrpcService } from './unary-service.js';

export interface GrpcServerOptions {
  host: string;
  /** 0 picks a free port (tests); the bound one is in the result. */
  port: number;
  services: GrpcService[];
  logger: GrpcLogger;
}

export interface RunningGrpcServer {
  port: number;
  /** host:port, ready for createGrpcClient. */
  address: string;
  health: HealthRegistry;
  /**
   * Reports NOT_SERVING, stops taking calls, lets calls in flight finish for up to graceMs, then
   * cuts the rest. Calling it again returns the same promise.
   */
  stop(graceMs?: number): Promise<void>;
}

const DEFAULT_GRACE_MS = 10_000;

/**
 * Starts a gRPC server with the given services plus grpc.health.v1, which reports SERVING for
 * the server ('') and for each service by its full name once the port is bound.
 */
export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const { logger } = options;
  const server = new Server();
  const health = new HealthRegistry();
  // Health calls are not logged per call: probes would drown the log.
  server.addService(healthV1.HealthService, healthServiceImplementation(health));
  for (const service of options.services) {
    server.addService(service.definition, adaptHandlers(service, logger));
  }

  const port = await bind(server, hostPort(options.host, options.port));
  const address = hostPort(options.host, port);
  for (const service of options.services) health.setStatus(service.name, ServingStatus.SERVING);
  health.setStatus(OVERALL, ServingStatus.SERVING);
  logger.info({ address, services: options.services.map((service) => service.name) }, 'gRPC server listening');

  let stopping: Promise<void> | undefined;
  const stop = (graceMs = DEFAULT_GRACE_MS): Promise<void> => {
    stopping ??= shutDown(server, health, logger, graceMs);
    return stopping;
  };
  return { port, address, health, stop };
}

function adaptHandlers(service: GrpcService, logger: GrpcLogger): UntypedServiceImplementation {
  const handlers: Record<string, handleUnaryCall<unknown, unknown>> = {};
  for (const [method, handler] of Object.entries(service.implementation)) {
    const definition = service.definition[method];
    if (!isUnaryMethod(definition)) throw new TypeError(`${service.name} has no unary method named "${method}".`);
    handlers[method] = instrumentUnaryHandler(definition.path, unaryCallHandler(definition.path, handler, logger));
  }
  return handlers;
}

function bind(server: Server, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) => {
      if (error) reject(error);
      else resolve(port);
    });
  });
}

function shutDown(server: Server, health: HealthRegistry, logger: GrpcLogger, graceMs: number): Promise<void> {
  health.shutdown();
  return new Promise((resolve) => {
    const force = setTimeout(() => {
      logger.warn({ grace_ms: graceMs }, 'gRPC calls still running after the grace period; cutting them');
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(force);
      logger.info({}, 'gRPC server stopped');
      resolve();
    });
  });
}

/** IPv6 literals need brackets in a gRPC target ('[::1]:50051'). */
function hostPort(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}
