import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningHttpServer {
  server: Server;
  port: number;
  /** `http://host:port`, for tests and logs. */
  url: string;
  close(): Promise<void>;
}

/** Starts the app; port 0 picks a free port (tests read it from the result). */
export function listen(app: Express, port = 0, host = '127.0.0.1'): Promise<RunningHttpServer> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) => {
      if (error) {
        reject(error);
        return;
      }
      const address = server.address() as AddressInfo;
      resolve({
        server,
        port: address.port,
        url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((closeError) => (closeError ? fail(closeError) : done()));
            // Idle keep-alive connections would otherwise hold close() open until they time out.
            server.closeIdleConnections();
          }),
      });
    });
  });
}
