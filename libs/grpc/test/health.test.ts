import { AppError, StatusCode } from '@billing/errors';
import { accountsV1, healthV1 } from '@billing/proto';
import { credentials } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkHealth,
  createGrpcClient,
  type RunningGrpcServer,
  ServingStatus,
  startGrpcServer,
  unaryService,
} from '../src/index.js';
import { recordingLogger } from './recording-logger.js';

const ACCOUNTS = 'billing.accounts.v1.AccountsService';

function startAccountsServer(): Promise<RunningGrpcServer> {
  return startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: recordingLogger(),
    services: [
      unaryService(accountsV1.AccountsServiceService, {
        getAccount: async (request) => ({ account: accountsV1.Account.fromPartial({ code: request.code }) }),
      }),
    ],
  });
}

/** A promise a handler can settle to tell the test it has started. */
function signal() {
  let fire: () => void = () => {};
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fired, fire };
}

/** Everything a Watch stream sends until it ends, and how it ended. */
function watch(address: string, service: string) {
  const client = new healthV1.HealthClient(address, credentials.createInsecure());
  const statuses: ServingStatus[] = [];
  const stream = client.watch({ service });
  const ended = new Promise<{ code: number }>((resolve) => {
    stream.on('data', (response: healthV1.HealthCheckResponse) => statuses.push(response.status));
    stream.on('status', (status: { code: number }) => resolve(status));
    stream.on('error', () => {});
  });
  const firstStatus = new Promise<void>((resolve) => stream.once('data', () => resolve()));
  return { statuses, ended, firstStatus, close: () => client.close() };
}

describe('grpc.health.v1', () => {
  let server: RunningGrpcServer | undefined;

  afterEach(async () => {
    await server?.stop(1_000);
    server = undefined;
  });

  it('reports SERVING for the server and for each service by its full name', async () => {
    server = await startAccountsServer();

    expect(await checkHealth(server.address)).toBe(ServingStatus.SERVING);
    expect(await checkHealth(server.address, ACCOUNTS)).toBe(ServingStatus.SERVING);
  });

  it('answers Check for an unknown service with NOT_FOUND', async () => {
    server = await startAccountsServer();

    const error = await checkHealth(server.address, 'billing.nothing.v1.Nothing').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AppError);
    expect([(error as AppError).code, (error as AppError).reason]).toEqual([StatusCode.NOT_FOUND, 'NOT_FOUND']);
  });

  it('reports a status the service sets', async () => {
    server = await startAccountsServer();

    server.health.setStatus(ACCOUNTS, ServingStatus.NOT_SERVING);

    expect(await checkHealth(server.address, ACCOUNTS)).toBe(ServingStatus.NOT_SERVING);
    expect(await checkHealth(server.address)).toBe(ServingStatus.SERVING);
  });

  it('tells watchers SERVING, then NOT_SERVING as soon as stop begins, then ends the watch', async () => {
    server = await startAccountsServer();
    const overall = watch(server.address, '');
    const accounts = watch(server.address, ACCOUNTS);
    await Promise.all([overall.firstStatus, accounts.firstStatus]);

    await server.stop(1_000);

    expect(await overall.ended).toMatchObject({ code: StatusCode.OK });
    expect(await accounts.ended).toMatchObject({ code: StatusCode.OK });
    expect(overall.statuses).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
    expect(accounts.statuses).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
    overall.close();
    accounts.close();
  });

  it('tells a watcher of an unknown service SERVICE_UNKNOWN, and the status once it is set', async () => {
    server = await startAccountsServer();
    const later = watch(server.address, 'billing.later.v1.Later');
    await later.firstStatus;

    server.health.setStatus('billing.later.v1.Later', ServingStatus.SERVING);
    await server.stop(1_000);

    await later.ended;
    expect(later.statuses).toEqual([ServingStatus.SERVICE_UNKNOWN, ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
    later.close();
  });

  it('lets a call in flight finish during a graceful stop and refuses new ones', async () => {
    let release: () => void = () => {};
    const entered = signal();
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: recordingLogger(),
      services: [
        unaryService(accountsV1.AccountsServiceService, {
          getAccount: (request) => {
            entered.fire();
            return new Promise((resolve) => {
              release = () => resolve({ account: accountsV1.Account.fromPartial({ code: request.code }) });
            });
          },
        }),
      ],
    });
    const client = createGrpcClient(accountsV1.AccountsServiceClient, server.address);
    const inFlight = client.call('getAccount', { code: 'A-9' });
    await entered.fired;

    const stopped = server.stop(5_000);
    const refused = await checkHealth(server.address).catch((caught: unknown) => caught);
    release();

    expect((await inFlight).account?.code).toBe('A-9');
    await stopped;
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe(StatusCode.UNAVAILABLE);
    client.close();
  });

  it('cuts calls still running when the grace period ends (the caller sees CANCELLED)', async () => {
    const entered = signal();
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: recordingLogger(),
      services: [
        unaryService(accountsV1.AccountsServiceService, {
          getAccount: () => {
            entered.fire();
            return new Promise(() => {});
          },
        }),
      ],
    });
    const client = createGrpcClient(accountsV1.AccountsServiceClient, server.address);
    const hanging = client.call('getAccount', { code: 'A-9' }).catch((caught: unknown) => caught);
    await entered.fired;

    await server.stop(50);

    const error = (await hanging) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect([error.code, error.reason]).toEqual([StatusCode.CANCELLED, 'CANCELLED']);
    client.close();
  });
});
