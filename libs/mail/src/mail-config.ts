import path from 'node:path';
import { loadConfig } from '@billing/config';
import { z } from 'zod';

/** An empty variable (as compose files often leave them) counts as unset. */
const unsetWhenEmpty = (value: unknown) => (value === '' ? undefined : value);

const schema = z
  .object({
    /** smtp://user:pass@host:port (STARTTLS when offered) or smtps:// (TLS); unset: mails go to MAIL_OUTBOX_DIR. */
    SMTP_URL: z.preprocess(unsetWhenEmpty, z.url({ protocol: /^smtps?$/ }).optional()),
    /** The sender address; the display name is the organization's. Required with SMTP_URL. */
    MAIL_FROM: z.preprocess(unsetWhenEmpty, z.email().optional()),
    /** Where mails are written as .eml files when no SMTP server is configured. */
    MAIL_OUTBOX_DIR: z.preprocess(unsetWhenEmpty, z.string().default('./.data/mail-outbox')),
  })
  .superRefine((env, ctx) => {
    if (env.SMTP_URL !== undefined && env.MAIL_FROM === undefined) {
      ctx.addIssue({ code: 'custom', path: ['MAIL_FROM'], message: 'required when SMTP_URL is set' });
    }
  });

export interface MailConfig {
  /** Unset: no SMTP server; mails are written to `outboxDir`. */
  smtpUrl?: string | undefined;
  from: string;
  /** Absolute. */
  outboxDir: string;
}

/** Only written into local .eml files, never sent anywhere (.invalid is a reserved TLD). */
export const OUTBOX_FROM = 'billing@example.invalid';

/** The mail settings of `service` (the name its configuration errors begin with). */
export function loadMailConfig(env: NodeJS.ProcessEnv = process.env, service = 'invoicing'): MailConfig {
  const config = loadConfig(service, schema, env);
  return {
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM ?? OUTBOX_FROM,
    // Relative to the directory the process was started in, fixed once at start.
    outboxDir: path.resolve(config.MAIL_OUTBOX_DIR),
  };
}
