import type { healthV1 } from '@billing/proto';
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { HealthRegistry } from './health-registry.js';

/** grpc.health.v1.Health over a registry, as Kubernetes probes and grpc-health-probe expect it. */
export function healthServiceImplementation(registry: HealthRegistry): healthV1.HealthServer {
  return {
    check(call, callback) {
      const status = registry.getStatus(call.request.service);
      if (status === undefined) callback({ code: GrpcStatus.NOT_FOUND, details: 'Unknown service.' });
      else callback(null, { status });
    },
    watch(call) {
      const unwatch = registry.watch(call.request.service, {
        next: (status) => call.write({ status }),
        end: () => call.end(),
      });
      call.on('cancelled', unwatch);
    },
  };
}
