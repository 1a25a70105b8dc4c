import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The local endpoint of the webhooks bench: answers 204 and notes when each delivery arrived. */
export interface BenchReceiver {
  url(path: string): string;
  /** Arrival time (performance.now()) by `<path> <webhook-id>`. */
  arrivals: Map<string, number>;
  /** The first body each path received. */
  bodies: Map<string, string>;
  /** Resolves once `count` deliveries arrived in all. */
  waitFor(count: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

export async function startBenchReceiver(): Promise<BenchReceiver> {
  const arrivals = new Map<string, number>();
  const bodies = new Map<string, string>();
  let waiting: { count: number; resolve: () => void } | null = null;
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    arrivals.set(`${path} ${request.headers['webhook-id']}`, performance.now());
    if (!bodies.has(path)) bodies.set(path, Buffer.concat(chunks).toString('utf8'));
    response.writeHead(204).end();
    if (waiting && arrivals.size >= waiting.count) waiting.resolve();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    arrivals,
    bodies,
    waitFor: (count) =>
      arrivals.size >= count
        ? Promise.resolve()
        : new Promise((resolve) => {
            waiting = { count, resolve };
          }),
    reset() {
      arrivals.clear();
      waiting = null;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
