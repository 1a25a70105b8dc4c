import { once } from 'node:events';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got: its path, headers and raw body, in arrival order. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request's body had arrived. */
  arrivedAt: number;
}

/** What the receiver answers a request: a status, or no answer at all until it closes. */
export type ReceiverAnswer = number | 'hang';

export interface WebhookReceiver {
  /** The absolute URL of `path` on this receiver (http://127.0.0.1:<port><path>). */
  url(path?: string): string;
  received: ReceivedWebhook[];
  /** Requests to `path`, in arrival order. */
  at(path: string): ReceivedWebhook[];
  /** How the receiver answers each request from now on (default 200). */
  answer(decide: (request: ReceivedWebhook) => ReceiverAnswer): void;
  close(): Promise<void>;
}

/** A real HTTP server on a free local port, standing in for an integrator's webhook endpoint. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let decide: (request: ReceivedWebhook) => ReceiverAnswer = () => 200;
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const webhook = {
      path: request.url ?? '/',
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      arrivedAt: performance.now(),
    };
    received.push(webhook);
    const answer = decide(webhook);
    if (answer === 'hang') return;
    response.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path) => received.filter((webhook) => webhook.path === path),
    answer(next) {
      decide = next;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
