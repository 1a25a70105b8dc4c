import { AppError } from '@billing/errors';
import { accountsV1 } from '@billing/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type RunningGrpcServer, startGrpcServer, unaryService } from '../src/index.js';
import { recordingLogger } from './recording-logger.js';

describe('per-call log lines when the logger drops info (LOG_LEVEL=warn)', () => {
  const logger = { ...recordingLogger(), isLevelEnabled: (level: string) => level !== 'info' };
  let server: RunningGrpcServer;
  let accounts: ReturnType<typeof createGrpcClient<typeof accountsV1.AccountsServiceService>>;

  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      services: [
        unaryService(accountsV1.AccountsServiceService, {
          getAccount: async (request) => ({ account: accountsV1.Account.fromPartial({ code: request.code }) }),
          deleteAccount: async () => {
            throw AppError.notFound();
          },
          updateAccount: async () => {
            throw new Error('disk full');
          },
        }),
      ],
    });
    accounts = createGrpcClient(accountsV1.AccountsServiceClient, server.address);
  });

  afterAll(async () => {
    accounts.close();
    await server.stop(1_000);
  });

  it('builds no line for answered calls and still logs a server fault as an error', async () => {
    logger.entries.length = 0; // the start-up line (a recorder keeps every level)
    await accounts.call('getAccount', { code: 'A-1' });
    await accounts.call('deleteAccount', { code: 'A-1' }).catch(() => undefined);
    await accounts
      .call('updateAccount', accountsV1.UpdateAccountRequest.fromPartial({ code: 'A-1' }), {
        context: { requestId: 'req-fault' },
      })
      .catch(() => undefined);

    expect(logger.entries).toEqual([
      {
        level: 'error',
        message: 'gRPC call failed',
        requestId: 'req-fault',
        fields: {
          grpc_method: '/billing.accounts.v1.AccountsService/UpdateAccount',
          grpc_code: 'INTERNAL',
          duration_ms: expect.any(Number),
          err: new Error('disk full'),
        },
      },
    ]);
  });
});
