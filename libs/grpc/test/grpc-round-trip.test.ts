import { AppError, StatusCode } from '@billing/errors';
import { currentContext, type RequestContext, runWithContext } from '@billing/observability';
import { accountsV1 } from '@billing/proto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createGrpcClient,
  type GrpcClient,
  type RunningGrpcServer,
  startGrpcServer,
  unaryService,
} from '../src/index.js';
import { recordingLogger } from './recording-logger.js';

type AccountsService = typeof accountsV1.AccountsServiceService;

const ACCOUNT_VALIDATION_ERROR = AppError.invalid([
  { field: 'legal_country', description: '"XX" is not a valid choice.' },
  { field: 'code', description: 'This field is required.' },
]);

describe('a service and its client over gRPC', () => {
  const logger = recordingLogger();
  const seen: Array<{ argument: RequestContext; current: RequestContext | undefined }> = [];
  let releaseSlowCall: () => void = () => {};
  let server: RunningGrpcServer;
  let accounts: GrpcClient<AccountsService>;

  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      services: [
        unaryService(accountsV1.AccountsServiceService, {
          getAccount: async (request, context) => {
            seen.push({ argument: context, current: currentContext() });
            return { account: accountsV1.Account.fromPartial({ code: request.code, display_name: 'Acme Oy' }) };
          },
          createAccount: async () => {
            throw ACCOUNT_VALIDATION_ERROR;
          },
          deleteAccount: async () => {
            throw AppError.refused('ACCOUNT_HAS_INVOICES', 'Tilillä on laskuja; sitä ei voi poistaa.');
          },
          updateAccount: async () => {
            throw new Error('connection to db-7.internal refused (password=hunter2)');
          },
          listAccounts: () =>
            new Promise((resolve) => {
              releaseSlowCall = () => resolve({ count: 0, accounts: [] });
            }),
        }),
      ],
    });
    accounts = createGrpcClient(accountsV1.AccountsServiceClient, server.address);
  });

  afterAll(async () => {
    releaseSlowCall();
    accounts.close();
    await server.stop(1_000);
  });

  beforeEach(() => {
    seen.length = 0;
    logger.entries.length = 0;
  });

  it('returns the response and hands the caller context to the handler, also as the current context', async () => {
    const context: RequestContext = {
      requestId: 'req-42',
      organizationId: '6f1c2a1e-3c5d-4a8b-9a53-0c3f4b1d2e7f',
      apiUserId: 'api-user-7',
      clientSystem: 'ERP Système 2',
      externalUser: 'jörg.müller@example.com',
    };

    const response = await accounts.call('getAccount', { code: 'A-1' }, { context });

    expect(response.account?.code).toBe('A-1');
    expect(response.account?.display_name).toBe('Acme Oy');
    // With the call's deadline, which travels as the call's own, not as metadata.
    const received = { ...context, deadline: expect.any(Number) };
    expect(seen).toEqual([{ argument: received, current: received }]);
  });

  it("gives the handler the call's deadline", async () => {
    const before = Date.now();
    await accounts.call('getAccount', { code: 'A-1' }, { context: { requestId: 'req-deadline' }, deadlineMs: 1_500 });
    const after = Date.now();
    const deadline = seen[0]?.argument.deadline ?? 0;
    expect(deadline).toBeGreaterThanOrEqual(before + 1_500);
    expect(deadline).toBeLessThanOrEqual(after + 1_500);
  });

  it('sends the current context when the caller names none', async () => {
    const context: RequestContext = { requestId: 'req-from-gateway', organizationId: 'org-1' };

    await runWithContext(context, () => accounts.call('getAccount', { code: 'A-1' }));

    const received = { ...context, deadline: expect.any(Number) };
    expect(seen).toEqual([{ argument: received, current: received }]);
  });

  it('gives a call without any context a fresh request id', async () => {
    await accounts.call('getAccount', { code: 'A-1' });

    expect(seen).toHaveLength(1);
    expect(seen[0]?.argument).toEqual({
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      deadline: expect.any(Number),
    });
  });

  it('logs one line per call with method, code and duration, inside the request context', async () => {
    await accounts.call('getAccount', { code: 'A-1' }, { context: { requestId: 'req-log' } });

    expect(logger.entries).toEqual([
      {
        level: 'info',
        message: 'gRPC call',
        requestId: 'req-log',
        fields: {
          grpc_method: '/billing.accounts.v1.AccountsService/GetAccount',
          grpc_code: 'OK',
          duration_ms: expect.any(Number),
        },
      },
    ]);
  });

  it('carries an AppError with field violations to the caller unchanged', async () => {
    const error = await accounts
      .call('createAccount', accountsV1.CreateAccountRequest.fromPartial({}))
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect([appError.code, appError.reason, appError.message]).toEqual([
      StatusCode.INVALID_ARGUMENT,
      'VALIDATION_FAILED',
      'Invalid input.',
    ]);
    expect(appError.fieldViolations).toEqual([
      { field: 'legal_country', description: '"XX" is not a valid choice.' },
      { field: 'code', description: 'This field is required.' },
    ]);
  });

  it('carries a non-ASCII message and a business reason unchanged', async () => {
    const error = (await accounts
      .call('deleteAccount', {
        code: 'A-1',
        existing_invoices: [],
        absent_invoices: [],
        last_round: false,
        invoiced_charges: [],
        uninvoiced_charges: [],
      })
      .catch((caught: unknown) => caught)) as AppError;

    expect([error.code, error.reason, error.message, error.fieldViolations]).toEqual([
      StatusCode.FAILED_PRECONDITION,
      'ACCOUNT_HAS_INVOICES',
      'Tilillä on laskuja; sitä ei voi poistaa.',
      [],
    ]);
    expect(logger.entries.map((entry) => [entry.level, entry.fields.grpc_code])).toEqual([
      ['info', 'FAILED_PRECONDITION'],
    ]);
  });

  it('hides an unexpected error behind INTERNAL and logs it with the request id', async () => {
    const error = (await accounts
      .call('updateAccount', accountsV1.UpdateAccountRequest.fromPartial({ code: 'A-1' }), {
        context: { requestId: 'req-boom' },
      })
      .catch((caught: unknown) => caught)) as AppError;

    expect([error.code, error.reason, error.message, error.fieldViolations]).toEqual([
      StatusCode.INTERNAL,
      'INTERNAL',
      'Internal server error.',
      [],
    ]);
    expect(logger.entries).toEqual([
      {
        level: 'error',
        message: 'gRPC call failed',
        requestId: 'req-boom',
        fields: {
          grpc_method: '/billing.accounts.v1.AccountsService/UpdateAccount',
          grpc_code: 'INTERNAL',
          duration_ms: expect.any(Number),
          err: new Error('connection to db-7.internal refused (password=hunter2)'),
        },
      },
    ]);
  });

  it('turns a missed deadline into DEADLINE_EXCEEDED', async () => {
    const error = (await accounts
      .call('listAccounts', accountsV1.ListAccountsRequest.fromPartial({}), { deadlineMs: 50 })
      .catch((caught: unknown) => caught)) as AppError;

    expect(error).toBeInstanceOf(AppError);
    expect([error.code, error.reason]).toEqual([StatusCode.DEADLINE_EXCEEDED, 'DEADLINE_EXCEEDED']);
    expect(error.message).toMatch(/^Deadline exceeded/);

    // grpc-js counts the server's deadline from when the call arrived, so under load it passes a
    // few ms after the client's (and the client's cancellation is still in flight): release the
    // handler only once the server's deadline has surely passed too (grpc-js keeps real time).
    await new Promise((resolve) => setTimeout(resolve, 100));
    releaseSlowCall();
    await new Promise((resolve) => setImmediate(resolve));
    expect(logger.entries.map((entry) => entry.fields)).toEqual([
      {
        grpc_method: '/billing.accounts.v1.AccountsService/ListAccounts',
        grpc_code: 'OK',
        duration_ms: expect.any(Number),
        reply_dropped: 'DEADLINE_EXCEEDED',
      },
    ]);
  });

  it('answers a method without a handler with UNIMPLEMENTED', async () => {
    const error = (await accounts.call('getRecipient', { uuid: 'r-1' }).catch((caught: unknown) => caught)) as AppError;

    expect([error.code, error.reason]).toEqual([StatusCode.UNIMPLEMENTED, 'UNIMPLEMENTED']);
  });

  it('refuses a deadline that is not a positive number of ms, by rejecting', async () => {
    await expect(accounts.call('getAccount', { code: 'A-1' }, { deadlineMs: 0 })).rejects.toThrow(
      new RangeError('A gRPC deadline must be a positive number of ms, got 0.'),
    );
    expect(seen).toEqual([]);
  });

  it('turns an unreachable server into UNAVAILABLE', async () => {
    const unreachable = createGrpcClient(accountsV1.AccountsServiceClient, '127.0.0.1:1');
    try {
      const error = (await unreachable
        .call('getAccount', { code: 'A-1' })
        .catch((caught: unknown) => caught)) as AppError;

      expect(error).toBeInstanceOf(AppError);
      expect([error.code, error.reason]).toEqual([StatusCode.UNAVAILABLE, 'UNAVAILABLE']);
    } finally {
      unreachable.close();
    }
  });
});

/** Compiled by the typecheck, never run: tsc fails if any of these calls is accepted. */
export async function callsTheTypesRefuse(client: GrpcClient<AccountsService>): Promise<void> {
  // @ts-expect-error: there is no such method.
  await client.call('getAcount', { code: 'A-1' });
  // @ts-expect-error: GetAccountRequest has no `uuid`.
  await client.call('getAccount', { uuid: 'A-1' });
  const { account } = await client.call('getAccount', { code: 'A-1' });
  // @ts-expect-error: the response is typed, and an Account has no `balance`.
  account?.balance;
}
