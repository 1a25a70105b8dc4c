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
 * invoicing), with forwardCommittedEvents. The hand-over is a shortcut the caller waits for before
 * it answers, and JetStream delivers the same events anyway, so it gets half of a caller's default
 * 5 s deadline: a slow accounts service delays a write, but never so long that the write's caller
 * gives up on a change already committed. 1 s proved too short on a loaded machine (CI, 2 cores):
 * the hand-over timed out and the account read right after the write showed the state before it.
 */
const HAND_OVER_DEADLINE_MS = 2_500;

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
