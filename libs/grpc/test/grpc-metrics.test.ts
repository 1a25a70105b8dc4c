import { AppError } from '@billing/errors';
import { metricsRegistry } from '@billing/observability';
import { accountsV1 } from '@billing/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type RunningGrpcServer, startGrpcServer, unaryService } from '../src/index.js';
import { recordingLogger } from './recording-logger.js';

/** The value of one series in the registry's text output; undefined when it has none. */
async function sample(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .join(',');
  const line = (await metricsRegistry.metrics()).split('\n').find((entry) => entry.startsWith(`${name}{${wanted}}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

const SERVICE = 'billing.accounts.v1.AccountsService';

describe('gRPC metrics', () => {
  let server: RunningGrpcServer;
  const accounts = () => createGrpcClient(accountsV1.AccountsServiceClient, server.address);

  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: recordingLogger(),
      services: [
        unaryService(accountsV1.AccountsServiceService, {
          getAccount: async (request) => {
            if (request.code === 'missing') throw AppError.notFound();
            return { account: accountsV1.Account.fromPartial({ code: request.code }) };
          },
          updateAccount: async () => {
            throw new Error('a bug');
          },
        }),
      ],
    });
  });
  afterAll(() => server.stop(1_000));

  it('counts every call on both sides by service, method and code, with its latency', async () => {
    const client = accounts();
    await client.call('getAccount', { code: 'A-1' });
    await client.call('getAccount', { code: 'A-2' });
    await expect(client.call('getAccount', { code: 'missing' })).rejects.toThrow();
    await expect(
      client.call('updateAccount', accountsV1.UpdateAccountRequest.fromPartial({ code: 'A-1' })),
    ).rejects.toThrow();
    client.close();

    const labels = (method: string, code: string) => ({
      grpc_type: 'unary',
      grpc_service: SERVICE,
      grpc_method: method,
      grpc_code: code,
    });
    for (const side of ['server', 'client']) {
      expect(await sample(`grpc_${side}_handled_total`, labels('GetAccount', 'OK'))).toBe(2);
      expect(await sample(`grpc_${side}_handled_total`, labels('GetAccount', 'NOT_FOUND'))).toBe(1);
      expect(await sample(`grpc_${side}_handled_total`, labels('UpdateAccount', 'INTERNAL'))).toBe(1);
      expect(await sample(`grpc_${side}_handling_seconds_count`, labels('GetAccount', 'OK'))).toBe(2);
      expect(
        await sample(`grpc_${side}_handling_seconds_bucket`, { le: '+Inf', ...labels('GetAccount', 'NOT_FOUND') }),
      ).toBe(1);
    }
    // The health service answers probes: it is not counted.
    expect((await metricsRegistry.metrics()).includes('grpc.health.v1')).toBe(false);
  });
});
