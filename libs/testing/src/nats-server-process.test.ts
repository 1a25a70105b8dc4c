import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, describe, expect, it } from 'vitest';
import { type NatsServerHandle, startNatsServer } from './nats-server-process.js';

describe('startNatsServer', () => {
  let server: NatsServerHandle | undefined;
  afterAll(async () => server?.dispose());

  it('runs a private JetStream server that keeps its port and store across a restart', async () => {
    server = await startNatsServer();
    expect(server.url).toBe(`nats://127.0.0.1:${server.port}`);

    const first = await connect({ servers: server.url });
    const jsm = await jetstreamManager(first);
    await jsm.streams.add({ name: 'PROBE', subjects: ['probe.>'] });
    await jsm.jetstream().publish('probe.one', new Uint8Array([1]));
    await first.close();

    await server.stop();
    await expect(connect({ servers: server.url, timeout: 500 })).rejects.toThrow();

    await server.restart();
    const second = await connect({ servers: server.url });
    const info = await (await jetstreamManager(second)).streams.info('PROBE');
    expect(info.state.messages).toBe(1);
    await second.close();
  });
});
