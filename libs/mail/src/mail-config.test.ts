import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMailConfig, OUTBOX_FROM } from './mail-config.js';

describe('loadMailConfig', () => {
  it('writes to ./.data/mail-outbox under the working directory when no SMTP server is configured', () => {
    expect(loadMailConfig({})).toEqual({
      smtpUrl: undefined,
      from: OUTBOX_FROM,
      outboxDir: path.join(process.cwd(), '.data', 'mail-outbox'),
    });
    expect(loadMailConfig({ SMTP_URL: '', MAIL_OUTBOX_DIR: 'tmp/mails', MAIL_FROM: 'faktura@nordlys.dk' })).toEqual({
      smtpUrl: undefined,
      from: 'faktura@nordlys.dk',
      outboxDir: path.join(process.cwd(), 'tmp', 'mails'),
    });
    expect(loadMailConfig({ MAIL_OUTBOX_DIR: '/var/mail/outbox' }).outboxDir).toBe('/var/mail/outbox');
  });

  it('sends through SMTP_URL from MAIL_FROM', () => {
    expect(
      loadMailConfig({ SMTP_URL: 'smtps://ada:s3cret@mail.example.com:465', MAIL_FROM: 'billing@nordlys.dk' }),
    ).toEqual({
      smtpUrl: 'smtps://ada:s3cret@mail.example.com:465',
      from: 'billing@nordlys.dk',
      outboxDir: path.join(process.cwd(), '.data', 'mail-outbox'),
    });
  });

  it('names what is wrong: MAIL_FROM missing with SMTP_URL, a URL that is not SMTP, a bad address', () => {
    expect(() => loadMailConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toThrowError(
      'invoicing: invalid configuration\n  MAIL_FROM: required, but not set',
    );
    expect(() => loadMailConfig({ SMTP_URL: 'http://127.0.0.1:2525', MAIL_FROM: 'not an address' })).toThrowError(
      /^invoicing: invalid configuration\n {2}SMTP_URL: .+\n {2}MAIL_FROM: .+$/,
    );
  });
});
