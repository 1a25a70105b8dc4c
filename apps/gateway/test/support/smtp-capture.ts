import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  /** The message's headers, names in lower case, folded lines joined. */
  headers: Map<string, string>;
}

/**
 * A real SMTP server on 127.0.0.1 that accepts every message and keeps its recipients and headers
 * (the invoice mails' tests need no more of them).
 */
export async function startSmtpCapture(): Promise<{ url: string; mails: CapturedMail[]; stop(): Promise<void> }> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
        const headers = new Map<string, string>();
        for (const line of head.split('\r\n')) {
          const colon = line.indexOf(':');
          headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
        }
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), headers });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    stop: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}
