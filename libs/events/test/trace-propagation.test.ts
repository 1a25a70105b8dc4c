import { randomUUID } from 'node:crypto';
import { activeTraceIds, initTracing, inSpan, SpanKind, type Tracing } from '@billing/observability';
import { type NatsServerHandle, startNatsServer, waitFor } from '@billing/testing';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EventBus,
  InProcessBus,
  JetStreamBus,
  OutboxMessage,
  OutboxRelay,
  startConsumer,
  streamNameFor,
} from '../src/index.js';
import { appendEvent } from './support/append-event.js';
import { HandledEffect } from './support/entities.js';
import { recordingLogger } from './support/recording-logger.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let nats: NatsServerHandle;
beforeAll(async () => {
  tracing = await initTracing({ serviceName: 'events-test', exporter });
  nats = await startNatsServer();
});
afterAll(async () => {
  await nats?.dispose();
  await tracing?.shutdown();
});

const buses: Array<{ name: string; open(): Promise<EventBus> }> = [
  { name: 'JetStream', open: () => JetStreamBus.connect({ servers: nats.url, name: 'trace-test' }) },
  { name: 'the in-process bus', open: async () => new InProcessBus() },
];

describe.each(buses)('trace context from the outbox row to the consumer on $name', ({ open }) => {
  let producerDb: TestOrm;
  let consumerDb: TestOrm;
  beforeAll(async () => {
    [producerDb, consumerDb] = await Promise.all([
      openMigratedTestOrm('events_trace_producer'),
      openMigratedTestOrm('events_trace_consumer'),
    ]);
  });
  afterAll(async () => {
    await producerDb?.dispose();
    await consumerDb?.dispose();
  });

  it.each([false, true])(
    'continues the writer’s trace (batch consumer: %s)',
    async (batch) => {
      exporter.reset();
      const bus = await open();
      const producer = `traced${batch ? 'batch' : 'single'}${randomUUID().slice(0, 8)}`;
      const inHandler = new Map<string, ReturnType<typeof activeTraceIds>>();
      const relay = new OutboxRelay({
        orm: producerDb.orm,
        bus,
        producer,
        logger: recordingLogger(),
        pollIntervalMs: 50,
      });
      const consumer = await startConsumer({
        orm: consumerDb.orm,
        bus,
        consumer: `${producer}-consumer`,
        stream: streamNameFor(producer),
        filterSubject: `${producer}.>`,
        logger: recordingLogger(),
        batch,
        handle: async (em, event) => {
          inHandler.set(event.event_id, activeTraceIds());
          em.create(HandledEffect, { id: randomUUID(), eventId: event.event_id, eventType: event.event_type });
        },
      });
      try {
        // One event written inside a request's span, one outside any trace (a scheduler's).
        const { traced, writer } = await inSpan('change', { kind: SpanKind.SERVER }, async () => ({
          traced: await appendEvent(producerDb.orm, producer, 'account.created'),
          writer: activeTraceIds()!,
        }));
        const untraced = await appendEvent(producerDb.orm, producer, 'account.updated');
        const rows = await producerDb.orm.em.fork().find(OutboxMessage, {}, { orderBy: { position: 'asc' } });
        const row = (id: string) => rows.find((candidate) => candidate.id === id)!;
        expect(row(traced.event_id).traceparent).toBe(`00-${writer.trace_id}-${writer.span_id}-01`);
        expect(row(untraced.event_id).traceparent).toBeNull();

        relay.start();
        // A consumer span ends after its handler, with the commit and the ack.
        const processSpans = async () => {
          await tracing.flush();
          return exporter.getFinishedSpans().filter((span) => span.name.endsWith(' process'));
        };
        await waitFor(async () => (await processSpans()).length === 2, { description: 'both events handled' });
        const spans = exporter.getFinishedSpans();
        const named = (name: string): ReadableSpan[] => spans.filter((span) => span.name === name);
        const [publish, ...morePublishes] = named(`${producer}.account.created publish`);
        const [process, ...moreProcesses] = named(`${producer}.account.created process`);
        expect(morePublishes).toEqual([]);
        expect(moreProcesses).toEqual([]);
        expect(publish!.kind).toBe(SpanKind.PRODUCER);
        expect(publish!.spanContext().traceId).toBe(writer.trace_id);
        expect(publish!.parentSpanContext?.spanId).toBe(writer.span_id);
        expect(publish!.attributes).toMatchObject({
          'messaging.system': 'nats',
          'messaging.destination.name': `${producer}.account.created`,
          'messaging.message.id': traced.event_id,
        });
        expect(process!.kind).toBe(SpanKind.CONSUMER);
        expect(process!.spanContext().traceId).toBe(writer.trace_id);
        expect(process!.parentSpanContext?.spanId).toBe(publish!.spanContext().spanId);
        expect(process!.attributes['messaging.consumer.group.name']).toBe(`${producer}-consumer`);
        expect(inHandler.get(traced.event_id)).toEqual({
          trace_id: writer.trace_id,
          span_id: process!.spanContext().spanId,
        });

        // The event written outside a trace: no publish span, its handling starts a trace of its own.
        expect(named(`${producer}.account.updated publish`)).toEqual([]);
        const [own] = named(`${producer}.account.updated process`);
        expect(own!.parentSpanContext).toBeUndefined();
        expect(own!.spanContext().traceId).not.toBe(writer.trace_id);
        expect(inHandler.get(untraced.event_id)?.span_id).toBe(own!.spanContext().spanId);
        expect(TRACEPARENT.test(row(traced.event_id).traceparent!)).toBe(true);
      } finally {
        await relay.stop();
        await consumer.stop();
        await bus.close();
      }
    },
    30_000,
  );
});
