import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '@billing/clock';
import nodemailer from 'nodemailer';
import type { MailTransport } from './transport.js';

/**
 * Writes each message as an .eml file into `dir` instead of sending it, for development without
 * an SMTP server: any mail program opens the file, attachment included. Named by what the message
 * is and the time, e.g. invoice-12-2026-01-15T08-00-00-000Z.eml.
 */
export function outboxTransport(dir: string, clock: Clock): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    async deliver(message, name) {
      const info = await transporter.sendMail(message);
      await mkdir(dir, { recursive: true });
      const stamp = clock.now().toISOString().replace(/[:.]/g, '-');
      await writeNew(path.join(dir, `${name}-${stamp}`), info.message as Buffer);
      return info.envelope.to;
    },
  };
}

/** Never overwrites an earlier mail sent in the same millisecond: adds -2, -3, ... */
async function writeNew(base: string, content: Buffer): Promise<void> {
  for (let n = 1; ; n++) {
    try {
      await writeFile(`${base}${n === 1 ? '' : `-${n}`}.eml`, content, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
