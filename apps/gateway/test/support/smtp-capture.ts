import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  /** The message's headers, names in lower case, folded lines joined. */
  headers: Map<string, string>;
  /** The Subject as a mail program shows it (encoded words decoded). */
  subject: string;
  /** The body of a plain-text message, its transfer encoding undone. */
  text: string;
}

/** Undoes RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=); blanks between two of them go. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, encoding: string, encoded: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(encoded, 'base64').toString('utf8')
        : Buffer.from(
            encoded
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_hex, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** A single-part body as written: quoted-printable and base64 undone, CRLF as LF. */
function decodeBody(body: string, encoding: string | undefined): string {
  const kind = encoding?.toLowerCase();
  const decoded =
    kind === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : kind === 'quoted-printable'
        ? Buffer.from(
            body
              .replace(/=\r\n/g, '')
              .replace(/=([0-9A-F]{2})/gi, (_hex, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  return decoded.replace(/\r\n/g, '\n');
}

/**
 * A real SMTP server on 127.0.0.1 that accepts every message and keeps its recipients, headers,
 * subject and (plain-text messages') body.
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
        const split = raw.indexOf('\r\n\r\n');
        const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
        const headers = new Map<string, string>();
        for (const line of head.split('\r\n')) {
          const colon = line.indexOf(':');
          headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
        }
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          headers,
          subject: decodeWords(headers.get('subject') ?? ''),
          text: decodeBody(raw.slice(split + 4), headers.get('content-transfer-encoding')),
        });
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
