import { AppError, StatusCode } from '@billing/errors';
import { type RunningGrpcServer, startGrpcServer, unaryService } from '@billing/grpc';
import type { RequestContext } from '@billing/observability';
import { accountsV1 } from '@billing/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsReadModel, type ReadModelSender } from '../src/index.js';

/** A stand-in for the accounts service's ReadModelService over a real gRPC server. */
describe('the accounts read model client', () => {
  const received: { envelopes: Buffer[]; organizationId: string | undefined; requestId: string }[] = [];
  let hold = false;
  const held: (() => void)[] = [];
  let server: RunningGrpcServer;
  let sender: ReadModelSender;

  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      services: [
        unaryService(accountsV1.ReadModelServiceService, {
          applyEvents: async (request, context) => {
            if (hold) await new Promise<void>((release) => held.push(release));
            received.push({
              envelopes: request.envelopes,
              organizationId: context.organizationId,
              requestId: context.requestId,
            });
            return { applied: request.envelopes.length };
          },
        }),
      ],
    });
    sender = accountsReadModel(server.address);
  });

  afterAll(async () => {
    for (const release of held) release();
    sender.close();
    await server.stop(100);
  });

  const context: RequestContext = {
    requestId: 'req-read-model-1',
    organizationId: '0b9f3c52-52a4-4c1e-9c41-7d3c2f5b8a10',
  };

  it("hands over the outbox bytes as they are, for the organization of the call's context", async () => {
    const outbox = new Uint8Array([0, 1, 2, 3, 250, 251, 252, 253]);
    // A view into a larger buffer, as outbox rows are read: only its own bytes travel.
    const first = outbox.subarray(1, 4);
    const second = outbox.subarray(4);

    await sender.send([first, second], context);

    expect(received).toEqual([
      {
        envelopes: [Buffer.from([1, 2, 3]), Buffer.from([250, 251, 252, 253])],
        organizationId: context.organizationId,
        requestId: 'req-read-model-1',
      },
    ]);
  });

  it('gives up after 2.5 s, half of a caller’s default deadline, when accounts does not answer', async () => {
    hold = true;
    const started = performance.now();
    const error = await sender.send([new Uint8Array([9])], context).then(
      () => null,
      (failure: unknown) => failure,
    );
    const elapsedMs = performance.now() - started;
    hold = false;

    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(StatusCode.DEADLINE_EXCEEDED);
    expect(elapsedMs).toBeGreaterThanOrEqual(2_400);
    expect(elapsedMs).toBeLessThan(4_000);
  });
});
