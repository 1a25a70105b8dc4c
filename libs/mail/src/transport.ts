/** One message as nodemailer sends it (a subset of its SendMailOptions). */
export interface OutgoingMail {
  from: { name: string; address: string };
  replyTo?: string;
  to: Array<{ name: string; address: string }>;
  subject: string;
  text: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
  /**
   * A Message-ID fixed by the sender (e.g. from its mail job), so a message sent again after a
   * crash is recognisably the same message; nodemailer makes one up when unset.
   */
  messageId?: string;
  date: Date;
}

/** Delivers one composed message and says which addresses it went to. */
export interface MailTransport {
  /** `name`: what the message is (invoice-12, payment-…), used where it is written to a file. */
  deliver(message: OutgoingMail, name: string): Promise<string[]>;
}

export interface MailRecipient {
  email: string;
  name?: string | undefined;
}

/** One address once, whatever its case; the first name given for it wins; empty addresses are dropped. */
export function uniqueRecipients<T extends MailRecipient>(recipients: ReadonlyArray<T>): T[] {
  const seen = new Set<string>();
  return recipients.filter((recipient) => {
    const key = recipient.email.trim().toLowerCase();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
