import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TestClock } from '@billing/clock';
import { loadMailConfig } from '@billing/mail';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invoiceViewOf } from '../../test/support/invoice-view.js';
import { renderInvoicePdf } from '../documents/invoice-pdf.js';
import { createInvoiceMailer } from './invoice-mailer.js';

const invoice = invoiceViewOf({
  uuid: '6f1c2d7e-1a0b-4c3d-9e8f-000000000001',
  invoice_number: '12',
  date: '2026-01-15',
  due_date: '2026-01-29',
  currency: 'DKK',
  subtotal: '200.00',
  vat: '50.00',
  total: '250.00',
  created_date: new Date('2026-01-15T08:00:00Z'),
  payment_terms: 14,
  vat_breakdown: [{ rate: '25.00', base: '200.00', vat: '50.00' }],
  seller: { name: 'Nordlys ApS', country: 'DK', email: 'faktura@nordlys.dk' },
  buyer: { name: 'Kunde A/S', country: 'DK' },
  language: 'da',
  lines: [{ description: 'Pro', price: '100.00', quantity: '2', subtotal: '200.00', vat_rate: '25.00' }],
});
const creditNote = { ...invoice, invoice_number: '13', is_credit_note: true, total: '-250.00', language: 'en' };

// ---- a small reader of the raw messages, enough to check what a mail program would show ----

interface Part {
  headers: Map<string, string>;
  body: Buffer;
}

function parsePart(raw: string): Part {
  const split = raw.indexOf('\r\n\r\n');
  const headers = new Map<string, string>();
  for (const line of raw
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const content = raw.slice(split + 4);
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const body =
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
  return { headers, body };
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

function parseMail(raw: string) {
  const message = parsePart(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(message.headers.get('content-type') ?? '')?.[1];
  if (boundary === undefined) throw new Error('not a multipart message');
  const parts = message.body
    .toString('utf8')
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => parsePart(part.replace(/^\r\n/, '').replace(/\r\n$/, '')));
  const text = parts.find((part) => part.headers.get('content-type')?.startsWith('text/plain'));
  const attachments = parts
    .filter((part) => part.headers.get('content-disposition')?.startsWith('attachment'))
    .map((part) => ({
      filename: /filename="?([^";]+)"?/.exec(part.headers.get('content-disposition')!)?.[1],
      contentType: part.headers.get('content-type')?.split(';')[0],
      content: part.body,
    }));
  return { headers: message.headers, text: text?.body.toString('utf8').replace(/\r\n/g, '\n'), attachments };
}

describe('InvoiceMailer over SMTP', () => {
  interface Received {
    from: string;
    to: string[];
    user: string | undefined;
    raw: string;
  }
  let server: SMTPServer;
  let port: number;
  let received: Received[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      // No TLS in the test; plain AUTH is allowed only because everything stays on 127.0.0.1.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'ada' && auth.password === 's3cret') callback(null, { user: auth.username });
        else callback(new Error('bad credentials'));
      },
      onRcptTo(address, _session, callback) {
        if (address.address.endsWith('@unknown.example')) callback(new Error('no such mailbox'));
        else callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            user: session.user as string | undefined,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    received = [];
  });

  it('sends one message to every recipient with the subject in Danish and the PDF attached', async () => {
    const pdf = await renderInvoicePdf(invoice);
    const mailer = createInvoiceMailer(
      { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'billing@nordlys.dk', outboxDir: '/nonexistent' },
      new TestClock('2026-01-15T08:00:05Z'),
    );
    const result = await mailer.send(
      invoice,
      pdf,
      [
        { email: 'ada@kunde.dk', name: 'Ada Jensen' },
        { email: 'bo@kunde.dk' },
        { email: 'BO@kunde.dk', name: 'Bo again' },
      ],
      'faktura@nordlys.dk',
    );

    expect(result).toEqual({ sent_to: ['ada@kunde.dk', 'bo@kunde.dk'] });
    expect(received.map(({ from, to, user }) => ({ from, to, user }))).toEqual([
      { from: 'billing@nordlys.dk', to: ['ada@kunde.dk', 'bo@kunde.dk'], user: undefined },
    ]);
    const mail = parseMail(received[0]!.raw);
    expect(mail.headers.get('from')).toBe('Nordlys ApS <billing@nordlys.dk>');
    expect(mail.headers.get('reply-to')).toBe('faktura@nordlys.dk');
    expect(mail.headers.get('to')).toBe('Ada Jensen <ada@kunde.dk>, bo@kunde.dk');
    expect(mail.headers.get('subject')).toBe('Faktura 12 fra Nordlys ApS');
    expect(mail.headers.get('date')).toBe('Thu, 15 Jan 2026 08:00:05 +0000');
    expect(mail.text).toBe(
      'Hej,\n\nVedhæftet finder du faktura 12 fra Nordlys ApS.\n\nI alt: 250,00 DKK\nForfaldsdato: 2026-01-29\n\nVenlig hilsen\nNordlys ApS\n',
    );
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]!.filename).toBe('invoice-12.pdf');
    expect(mail.attachments[0]!.contentType).toBe('application/pdf');
    expect(mail.attachments[0]!.content.equals(pdf)).toBe(true);
  });

  it('logs in with the credentials of SMTP_URL and reports only the recipients the server accepted', async () => {
    const mailer = createInvoiceMailer(
      loadMailConfig({ SMTP_URL: `smtp://ada:s3cret@127.0.0.1:${port}`, MAIL_FROM: 'billing@nordlys.dk' }),
    );
    const pdf = await renderInvoicePdf(creditNote);
    const result = await mailer.send(
      creditNote,
      pdf,
      [{ email: 'ada@kunde.dk' }, { email: 'ghost@unknown.example' }],
      '',
    );

    expect(result).toEqual({ sent_to: ['ada@kunde.dk'] });
    expect(received.map(({ to, user }) => ({ to, user }))).toEqual([{ to: ['ada@kunde.dk'], user: 'ada' }]);
    const mail = parseMail(received[0]!.raw);
    expect(mail.headers.get('subject')).toBe('Credit note 13 from Nordlys ApS');
    // No organization e-mail: no Reply-To.
    expect(mail.headers.has('reply-to')).toBe(false);
    expect(mail.attachments.map((attachment) => attachment.filename)).toEqual(['credit-note-13.pdf']);
    expect(mail.attachments[0]!.content.equals(pdf)).toBe(true);
  });

  it('fails when the server accepts no recipient, and sends nothing to nobody', async () => {
    const mailer = createInvoiceMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'billing@nordlys.dk',
      outboxDir: '',
    });
    const pdf = Buffer.from('%PDF-1.3');
    await expect(mailer.send(invoice, pdf, [{ email: 'ghost@unknown.example' }], '')).rejects.toThrowError(
      /no such mailbox/,
    );
    expect(await mailer.send(invoice, pdf, [], '')).toEqual({ sent_to: [] });
    expect(received).toEqual([]);
  });
});

describe('InvoiceMailer without SMTP: the outbox folder', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'invoice-outbox-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one .eml per send, named by number and time, with the recipients and the PDF', async () => {
    const clock = new TestClock('2026-01-15T08:00:05.250Z');
    const mailer = createInvoiceMailer(loadMailConfig({ MAIL_OUTBOX_DIR: path.join(dir, 'outbox') }), clock);
    const pdf = await renderInvoicePdf(invoice);

    expect(
      await mailer.send(invoice, pdf, [{ email: 'ada@kunde.dk', name: 'Ada Jensen' }, { email: 'bo@kunde.dk' }], ''),
    ).toEqual({
      sent_to: ['ada@kunde.dk', 'bo@kunde.dk'],
    });
    // The same invoice sent again in the same millisecond keeps the first file.
    expect(await mailer.send(invoice, pdf, [{ email: 'ada@kunde.dk' }], '')).toEqual({ sent_to: ['ada@kunde.dk'] });
    clock.advanceSeconds(60);
    const creditPdf = await renderInvoicePdf(creditNote);
    await mailer.send(creditNote, creditPdf, [{ email: 'bo@kunde.dk' }], '');
    expect(await mailer.send(creditNote, creditPdf, [], '')).toEqual({ sent_to: [] });

    const outbox = path.join(dir, 'outbox');
    expect((await readdir(outbox)).sort()).toEqual([
      'credit-note-13-2026-01-15T08-01-05-250Z.eml',
      'invoice-12-2026-01-15T08-00-05-250Z-2.eml',
      'invoice-12-2026-01-15T08-00-05-250Z.eml',
    ]);
    const first = parseMail(await readFile(path.join(outbox, 'invoice-12-2026-01-15T08-00-05-250Z.eml'), 'utf8'));
    expect(first.headers.get('from')).toBe('Nordlys ApS <billing@example.invalid>');
    expect(first.headers.get('to')).toBe('Ada Jensen <ada@kunde.dk>, bo@kunde.dk');
    expect(first.headers.get('subject')).toBe('Faktura 12 fra Nordlys ApS');
    expect(first.text).toContain('\nI alt: 250,00 DKK\nForfaldsdato: 2026-01-29\n');
    expect(first.attachments.map(({ filename, contentType }) => ({ filename, contentType }))).toEqual([
      { filename: 'invoice-12.pdf', contentType: 'application/pdf' },
    ]);
    expect(first.attachments[0]!.content.equals(pdf)).toBe(true);
    const second = parseMail(await readFile(path.join(outbox, 'invoice-12-2026-01-15T08-00-05-250Z-2.eml'), 'utf8'));
    expect(second.headers.get('to')).toBe('ada@kunde.dk');
    const credit = parseMail(await readFile(path.join(outbox, 'credit-note-13-2026-01-15T08-01-05-250Z.eml'), 'utf8'));
    expect(credit.headers.get('to')).toBe('bo@kunde.dk');
    expect(credit.headers.get('subject')).toBe('Credit note 13 from Nordlys ApS');
    expect(credit.attachments[0]!.filename).toBe('credit-note-13.pdf');
    expect(credit.attachments[0]!.content.equals(creditPdf)).toBe(true);
  });
});
