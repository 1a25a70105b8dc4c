import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  /** The message's headers, names in lower case, folded lines joined (encoded words left as sent). */
  headers: Map<string, string>;
  /** The Subject decoded (RFC 2047 words as text). */
  subject: string;
  /** The text/plain part decoded (quoted-printable or base64), line ends as \n; '' when none. */
  text: string;
}

function headersOf(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** RFC 2047 words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) as text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

function decodeBody(content: string, encoding: string | undefined): string {
  const bytes =
    encoding === 'base64'
      ? Buffer.from(content.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            content
              .replace(/=\r\n/g, '')
              .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          )
        : Buffer.from(content, 'utf8');
  return bytes.toString('utf8').replace(/\r\n/g, '\n');
}

/** The text/plain part of a message (single part or multipart), decoded. */
function plainText(headers: Map<string, string>, body: string): string {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
  if (boundary === undefined) {
    return type.startsWith('text/plain')
      ? decodeBody(body, headers.get('content-transfer-encoding')?.toLowerCase())
      : '';
  }
  for (const part of body.split(`--${boundary}`).slice(1, -1)) {
    const raw = part.replace(/^\r\n/, '');
    const split = raw.indexOf('\r\n\r\n');
    const text = plainText(headersOf(raw.slice(0, split)), raw.slice(split + 4).replace(/\r\n$/, ''));
    if (text !== '') return text;
  }
  return '';
}

/**
 * A real SMTP server on 127.0.0.1 that accepts every message and keeps its recipients, headers,
 * subject and text (what the mail tests check; attachments are left out).
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
        const headers = headersOf(raw.slice(0, split));
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          headers,
          subject: decodeWords(headers.get('subject') ?? ''),
          text: plainText(headers, raw.slice(split + 4)),
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
