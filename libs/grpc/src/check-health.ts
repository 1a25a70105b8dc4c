import { healthV1 } from '@billing/proto';
import { createGrpcClient } from './client.js';
import { OVERALL, type ServingStatus } from './health-registry.js';

/**
 * Asks a server's grpc.health.v1 Check for one service ('' = the whole server), for readiness
 * probes and tests. Rejects with an AppError: NOT_FOUND for a service the server does not know,
 * UNAVAILABLE when nothing answers, DEADLINE_EXCEEDED after deadlineMs.
 */
export async function checkHealth(address: string, service = OVERALL, deadlineMs = 1_000): Promise<ServingStatus> {
  const client = createGrpcClient(healthV1.HealthClient, address, { defaultDeadlineMs: deadlineMs });
  try {
    const { status } = await client.call('check', { service });
    return status;
  } finally {
    client.close();
  }
}
