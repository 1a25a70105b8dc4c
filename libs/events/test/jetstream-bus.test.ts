import { testNatsUrl } from '@billing/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll } from 'vitest';
import { JetStreamBus, streamNameFor } from '../src/index.js';
import { runEventBusContract } from './support/event-bus-contract.js';

const createdStreams = new Set<string>();

runEventBusContract('JetStreamBus', async () => {
  const bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'events-contract-test' });
  const ensureStream = bus.ensureStream.bind(bus);
  bus.ensureStream = async (producer) => {
    createdStreams.add(streamNameFor(producer));
    await ensureStream(producer);
  };
  return bus;
});

// The shared test server outlives this run: remove the streams it created.
afterAll(async () => {
  const nc = await connect({ servers: testNatsUrl() });
  const jsm = await jetstreamManager(nc);
  for (const name of createdStreams) await jsm.streams.delete(name);
  await nc.close();
});
