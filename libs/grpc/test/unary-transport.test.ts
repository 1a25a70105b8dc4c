import http2, { type Http2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { AppError, StatusCode } from '@billing/errors';
import { accountsV1 } from '@billing/proto';
import { credentials } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGrpcClient, type RunningGrpcServer, startGrpcServer, unaryService } from '../src/index.js';
import { recordingLogger } from './recording-logger.js';

/**
 * What the lean HTTP/2 path of createGrpcClient (UnaryTransport) must do like grpc-js: reconnect,
 * refuse calls once closed, and map answers that carry no gRPC status. The common cases (results,
 * errors with details, deadlines, unreachable servers, cut calls) are in grpc-round-trip.test.ts and
 * health.test.ts, which run through the same path.
 */
describe('createGrpcClient over plain HTTP/2', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function accountsServer(port = 0, name = 'first'): Promise<RunningGrpcServer> {
    return startGrpcServer({
      host: '127.0.0.1',
      port,
      logger: recordingLogger(),
      services: [
        unaryService(accountsV1.AccountsServiceService, {
          getAccount: async (request) => ({
            account: accountsV1.Account.fromPartial({ code: request.code, display_name: name }),
          }),
          createAccount: async () => {
            throw AppError.invalid([{ field: 'code', description: 'This field is required.' }]);
          },
        }),
      ],
    });
  }

  /** A bare HTTP/2 server whose every stream is answered by `answer` (a broken or foreign peer). */
  async function rawServer(answer: (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void) {
    const server: Http2Server = http2.createServer();
    server.on('stream', (stream, headers) => {
      stream.resume();
      stream.on('end', () => answer(stream, headers));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  function client(address: string) {
    const accounts = createGrpcClient(accountsV1.AccountsServiceClient, address, { defaultDeadlineMs: 2_000 });
    cleanups.push(() => accounts.close());
    return accounts;
  }

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as AppError,
    );

  it('opens a new connection to a server restarted on the same address', async () => {
    const first = await accountsServer();
    const accounts = client(first.address);
    expect((await accounts.call('getAccount', { code: 'A-1' })).account?.display_name).toBe('first');

    await first.stop(1_000);
    const second = await accountsServer(first.port, 'second');
    cleanups.push(() => second.stop(1_000));

    expect((await accounts.call('getAccount', { code: 'A-1' })).account?.display_name).toBe('second');
  });

  it('refuses calls once closed, with UNAVAILABLE', async () => {
    const server = await accountsServer();
    cleanups.push(() => server.stop(1_000));
    const accounts = client(server.address);
    await accounts.call('getAccount', { code: 'A-1' });

    accounts.close();
    const error = await failure(accounts.call('getAccount', { code: 'A-1' }));

    expect(error).toBeInstanceOf(AppError);
    expect([error?.code, error?.reason, error?.message]).toEqual([
      StatusCode.UNAVAILABLE,
      'UNAVAILABLE',
      'Channel has been shut down',
    ]);
  });

  it('sends the deadline to the server as grpc-timeout, with the metadata and content type', async () => {
    let seen: IncomingHttpHeaders = {};
    const address = await rawServer((stream, headers) => {
      seen = headers;
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5' }, { endStream: true });
    });

    const error = await failure(
      client(address).call(
        'getAccount',
        { code: 'A-1' },
        { deadlineMs: 1_234, context: { requestId: 'req-7', clientSystem: 'ERP Système' } },
      ),
    );

    expect([error?.code, error?.reason]).toEqual([StatusCode.NOT_FOUND, 'NOT_FOUND']);
    expect(seen).toMatchObject({
      ':method': 'POST',
      ':path': '/billing.accounts.v1.AccountsService/GetAccount',
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': '1234m',
      'x-request-id': 'req-7',
      'x-client-system': 'ERP%20Syst%C3%A8me',
    });
  });

  it('maps an HTTP answer without a gRPC status as grpc-js does (503 UNAVAILABLE, 404 UNIMPLEMENTED)', async () => {
    const unavailable = await rawServer((stream) => stream.respond({ ':status': 503 }, { endStream: true }));
    const missing = await rawServer((stream) => stream.respond({ ':status': 404 }, { endStream: true }));

    const errors = [
      await failure(client(unavailable).call('getAccount', { code: 'A-1' })),
      await failure(client(missing).call('getAccount', { code: 'A-1' })),
    ];

    expect(errors.map((error) => [error?.code, error?.message])).toEqual([
      [StatusCode.UNAVAILABLE, 'Received HTTP status code 503'],
      [StatusCode.UNIMPLEMENTED, 'Received HTTP status code 404'],
    ]);
  });

  it('sends a refused stream once more, then answers UNAVAILABLE; a reset stream is INTERNAL', async () => {
    let refusals = 0;
    const refusing = await rawServer((stream) => {
      refusals++;
      stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
    });
    const resetting = await rawServer((stream) => stream.close(http2.constants.NGHTTP2_PROTOCOL_ERROR));

    const refused = await failure(client(refusing).call('getAccount', { code: 'A-1' }));
    const reset = await failure(client(resetting).call('getAccount', { code: 'A-1' }));

    expect([refused?.code, refused?.message, refusals]).toEqual([
      StatusCode.UNAVAILABLE,
      'Stream refused by server',
      2,
    ]);
    expect([reset?.code, reset?.message]).toEqual([
      StatusCode.INTERNAL,
      'Received RST_STREAM with code 1 (Call ended without gRPC status)',
    ]);
  });

  it('refuses an OK status without a response message (UNIMPLEMENTED, as grpc-js)', async () => {
    const address = await rawServer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end();
    });

    const error = await failure(client(address).call('getAccount', { code: 'A-1' }));

    expect([error?.code, error?.message]).toEqual([StatusCode.UNIMPLEMENTED, 'No message received']);
  });

  it('fails a response message that does not decode with INTERNAL, as grpc-js', async () => {
    const address = await rawServer((stream) => {
      // Field 1, length 5, but one byte follows.
      const message = Buffer.from([0x0a, 0x05, 0x41]);
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.concat([Buffer.from([0, 0, 0, 0, message.length]), message]));
    });

    const error = await failure(client(address).call('getAccount', { code: 'A-1' }));

    expect(error?.code).toBe(StatusCode.INTERNAL);
    expect(error?.message).toMatch(/^Response message parsing error: /);
  });

  it('goes through grpc-js when credentials are given, with the same results and errors', async () => {
    const server = await accountsServer();
    cleanups.push(() => server.stop(1_000));
    const accounts = createGrpcClient(accountsV1.AccountsServiceClient, server.address, {
      credentials: credentials.createInsecure(),
    });
    cleanups.push(() => accounts.close());

    const { account } = await accounts.call('getAccount', { code: 'A-2' });
    const error = await failure(accounts.call('createAccount', accountsV1.CreateAccountRequest.fromPartial({})));

    expect(account?.code).toBe('A-2');
    expect([error?.code, error?.reason, error?.fieldViolations]).toEqual([
      StatusCode.INVALID_ARGUMENT,
      'VALIDATION_FAILED',
      [{ field: 'code', description: 'This field is required.' }],
    ]);
  });
});
