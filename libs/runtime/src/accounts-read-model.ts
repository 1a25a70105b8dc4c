import { createGrpcClient } from '@billing/grpc';
import type { RequestContext } from '@billing/observability';
import { accountsV1 } from '@billing/proto';

/** Where committed events are handed to the accounts service's read model. */
export interface ReadModelSender {
  /** Encoded envelopes (the outbox bytes) of one committed change; the organization travels in metadata. */
  send(envelopes: Uint8Array[], context: RequestContext): Promise<void>;
  close(): void;
}

/**
 * Used by every service whose events feed the accounts service's read models (subscriptions,
 * invoicing), with forwardCommittedEvents. The hand-over is a shortcut the caller waits for before it answers, and JetStream delivers the
 * same events anyway: a slow accounts service must not hold a write for the 5 s default deadline.
 */
const HAND_OVER_DEADLINE_MS = 1_000;

/** The accounts service's ReadModelService over gRPC (the same address as the Directory). */
export function accountsReadModel(address: string): ReadModelSender {
  const readModel = createGrpcClient(accountsV1.ReadModelServiceClient, address, {
    defaultDeadlineMs: HAND_OVER_DEADLINE_MS,
  });
  return {
    async send(envelopes, context) {
      const bytes = envelopes.map((envelope) => Buffer.from(envelope.buffer, envelope.byteOffset, envelope.byteLength));
      await readModel.call('applyEvents', { envelopes: bytes }, { context });
    },
    close() {
      readModel.close();
    },
  };
}
