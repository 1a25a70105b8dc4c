import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Cuts every open connection and refuses new ones: the dependency is unreachable. */
  cut(): Promise<void>;
  /** Accepts connections again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of `target`, for a process that must lose its database or
 * broker while the test watches it: what a network partition does, without touching the shared
 * Postgres and NATS other tests use.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as { port: number }).port;
        server = next;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const closing = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      if (closing) closing.close(() => resolve());
      else resolve();
    });
  await listen();
  return {
    get port() {
      return port;
    },
    cut: stop,
    restore: listen,
    close: stop,
  };
}
