import { connect, createServer } from 'node:net';

/**
 * True when nothing listens on 127.0.0.1:<port>: binding it succeeds. It binds the port for a moment,
 * so it must not be polled while a server is about to bind it (see portAcceptsConnections).
 */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port the OS just handed out and released, for a child process configured by environment. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * True when something listens on 127.0.0.1:<port>: a connection to it is accepted. Unlike
 * portIsFree it never holds the port, so it can be polled while a server is starting on it (a
 * binding probe at the wrong moment makes that server's own bind fail).
 */
export function portAcceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
