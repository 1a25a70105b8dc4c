import { AppError, StatusCode } from '@billing/errors';
import { activeTraceIds, initTracing, inSpan, SpanKind, SpanStatusCode, type Tracing } from '@billing/observability';
import { accountsV1 } from '@billing/proto';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createGrpcClient,
  type GrpcClient,
  type RunningGrpcServer,
  startGrpcServer,
  unaryService,
} from '../src/index.js';
import { recordingLogger } from './recording-logger.js';

const GET_ACCOUNT = 'billing.accounts.v1.AccountsService/GetAccount';
const DELETE_ACCOUNT = 'billing.accounts.v1.AccountsService/DeleteAccount';
const UPDATE_ACCOUNT = 'billing.accounts.v1.AccountsService/UpdateAccount';

describe('gRPC calls in a trace', () => {
  const exporter = new InMemorySpanExporter();
  const inHandler: Array<ReturnType<typeof activeTraceIds>> = [];
  let tracing: Tracing;
  let server: RunningGrpcServer;
  let accounts: GrpcClient<typeof accountsV1.AccountsServiceService>;

  beforeAll(async () => {
    tracing = await initTracing({ serviceName: 'grpc-test', exporter });
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: recordingLogger(),
      services: [
        unaryService(accountsV1.AccountsServiceService, {
          getAccount: async (request) => {
            inHandler.push(activeTraceIds());
            return { account: accountsV1.Account.fromPartial({ code: request.code }) };
          },
          deleteAccount: async () => {
            throw AppError.notFound();
          },
          updateAccount: async () => {
            throw new Error('database gone');
          },
        }),
      ],
    });
    accounts = createGrpcClient(accountsV1.AccountsServiceClient, server.address);
  });

  afterAll(async () => {
    accounts.close();
    await server.stop(1_000);
    await tracing.shutdown();
  });

  beforeEach(() => {
    exporter.reset();
    inHandler.length = 0;
  });

  const finished = async (): Promise<Record<string, ReadableSpan>> => {
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    return Object.fromEntries(spans.map((span) => [`${SpanKind[span.kind]} ${span.name}`, span]));
  };

  it('continues the caller span: client span → traceparent metadata → server span running the handler', async () => {
    await inSpan('request', { kind: SpanKind.SERVER }, () => accounts.call('getAccount', { code: 'A-1' }));

    const spans = await finished();
    expect(Object.keys(spans).sort()).toEqual([`CLIENT ${GET_ACCOUNT}`, `SERVER ${GET_ACCOUNT}`, 'SERVER request']);
    const request = spans['SERVER request']!;
    const client = spans[`CLIENT ${GET_ACCOUNT}`]!;
    const server = spans[`SERVER ${GET_ACCOUNT}`]!;
    const traceId = request.spanContext().traceId;
    expect(client.spanContext().traceId).toBe(traceId);
    expect(client.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext).toMatchObject({ spanId: client.spanContext().spanId, isRemote: true });
    expect(inHandler).toEqual([{ trace_id: traceId, span_id: server.spanContext().spanId }]);
    expect(server.attributes).toEqual({
      'rpc.system': 'grpc',
      'rpc.service': 'billing.accounts.v1.AccountsService',
      'rpc.method': 'GetAccount',
      'rpc.grpc.status_code': StatusCode.OK,
    });
    expect(client.status.code).toBe(SpanStatusCode.UNSET);
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('starts a trace at the server when the caller sent no traceparent', async () => {
    await accounts.call('getAccount', { code: 'A-1' });
    const spans = await finished();
    // The client span is a root here (no active span), and the server continues it.
    expect(spans[`CLIENT ${GET_ACCOUNT}`]!.parentSpanContext).toBeUndefined();
    expect(spans[`SERVER ${GET_ACCOUNT}`]!.parentSpanContext?.spanId).toBe(
      spans[`CLIENT ${GET_ACCOUNT}`]!.spanContext().spanId,
    );
  });

  it("marks a caller's error failed only on the client side, a server fault on both", async () => {
    await expect(
      accounts.call('deleteAccount', accountsV1.DeleteAccountRequest.fromPartial({ code: 'A-1' })),
    ).rejects.toMatchObject({ code: StatusCode.NOT_FOUND });
    await expect(accounts.call('updateAccount', accountsV1.UpdateAccountRequest.fromPartial({}))).rejects.toMatchObject(
      { code: StatusCode.INTERNAL },
    );

    const spans = await finished();
    expect(spans[`CLIENT ${DELETE_ACCOUNT}`]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'NOT_FOUND' });
    expect(spans[`SERVER ${DELETE_ACCOUNT}`]!.status.code).toBe(SpanStatusCode.UNSET);
    expect(spans[`SERVER ${DELETE_ACCOUNT}`]!.attributes['rpc.grpc.status_code']).toBe(StatusCode.NOT_FOUND);
    expect(spans[`CLIENT ${UPDATE_ACCOUNT}`]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'INTERNAL' });
    expect(spans[`SERVER ${UPDATE_ACCOUNT}`]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'INTERNAL' });
    expect(spans[`SERVER ${UPDATE_ACCOUNT}`]!.events.map((event) => event.name)).toEqual(['exception']);
  });
});
