import { inTransaction } from '@billing/db';
import { type MailTransport, uniqueRecipients } from '@billing/mail';
import {
  type ClaimedPaymentMail,
  claimPaymentMails,
  type PaymentMailOutcome,
  storePaymentMailOutcomes,
} from '../../db/payment-mail-store.js';
import type { AccountFacts, OrganizationFacts } from '../../domain/directory.js';
import { mailRecipients, paymentMailText } from '../../domain/payment-mail.js';
import { systemContext } from '../charging/run-attempt.js';
import type { PaymentsDeps } from '../deps.js';

const MAX_ATTEMPTS = 10;

export interface PaymentMailSender {
  transport: MailTransport;
  /** MAIL_FROM: the sender address; the display name is the organization's. */
  from: string;
}

/**
 * Sends a batch of up to `limit` waiting payment mails, oldest first, in one transaction: they are
 * claimed with SKIP LOCKED (so replicas never take the same one), sent one after the other, and
 * marked sent (or failed, to be tried again) with one statement in the transaction that claimed
 * them. Written with the change they tell of, a mail is never lost; a crash before this commit
 * sends the batch's mails again with the same Message-ID (the mail's id), which mail programs show
 * as one message: SMTP itself has no way to make a delivery exactly-once. The accounts (with their
 * recipients) and organizations of the batch are asked for once per organization, not per mail.
 * Answers how many mails it handled.
 */
export async function sendPaymentMails(deps: PaymentsDeps, sender: PaymentMailSender, limit = 100): Promise<number> {
  return inTransaction(deps.orm, async (em) => {
    const mails = await claimPaymentMails(em, MAX_ATTEMPTS, limit);
    if (mails.length === 0) return 0;
    const lookup = directoryLookup(deps, mails);
    const outcomes: PaymentMailOutcome[] = [];
    for (const mail of mails) {
      try {
        const sentTo = await deliver(deps, sender, mail, lookup);
        outcomes.push({
          organization_id: mail.organization_id,
          id: mail.id,
          sent_to: sentTo,
          sent_at: deps.clock.now(),
        });
      } catch (error) {
        const lastError = error instanceof Error ? error.message : String(error);
        outcomes.push({ organization_id: mail.organization_id, id: mail.id, last_error: lastError });
        deps.logger.warn(
          { err: error, mail: mail.id, attempts: mail.attempts + 1 },
          'payment e-mail failed; will retry',
        );
      }
    }
    await storePaymentMailOutcomes(em, outcomes);
    return mails.length;
  });
}

/** The batch's accounts and organizations, each organization's asked for once, when first needed. */
interface DirectoryLookup {
  account(mail: ClaimedPaymentMail): Promise<AccountFacts | null>;
  organization(organizationId: string): Promise<OrganizationFacts>;
}

function directoryLookup(deps: PaymentsDeps, mails: readonly ClaimedPaymentMail[]): DirectoryLookup {
  const accountIds = new Map<string, string[]>();
  for (const mail of mails) {
    const ids = accountIds.get(mail.organization_id);
    if (ids) ids.push(mail.account_id);
    else accountIds.set(mail.organization_id, [mail.account_id]);
  }
  const accounts = new Map<string, Promise<Map<string, AccountFacts>>>();
  const organizations = new Map<string, Promise<OrganizationFacts>>();
  // A failed call fails the mails that need it (each counts an attempt), as one call per mail did.
  const once = <T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> => {
    let found = cache.get(key);
    if (!found) {
      found = load();
      found.catch(() => undefined);
      cache.set(key, found);
    }
    return found;
  };
  return {
    async account(mail) {
      const found = await once(accounts, mail.organization_id, () =>
        accountsOf(deps, mail.organization_id, accountIds.get(mail.organization_id) ?? []),
      );
      return found.get(mail.account_id) ?? null;
    },
    organization: (organizationId) =>
      once(organizations, organizationId, () => deps.directory.organization(systemContext(organizationId))),
  };
}

/** The organization's accounts by uuid: one call for all, or (no batch call) one call each. */
async function accountsOf(
  deps: PaymentsDeps,
  organizationId: string,
  accountIds: readonly string[],
): Promise<Map<string, AccountFacts>> {
  const context = systemContext(organizationId);
  const { directory } = deps;
  if (directory.accounts) return directory.accounts(context, accountIds);
  const found = new Map<string, AccountFacts>();
  for (const accountId of new Set(accountIds)) {
    const account = await directory.account(context, accountId);
    if (account) found.set(accountId, account);
  }
  return found;
}

/** Sends one mail to the account's recipients with the mail's flag; none: nothing is sent. */
async function deliver(
  deps: PaymentsDeps,
  sender: PaymentMailSender,
  mail: ClaimedPaymentMail,
  lookup: DirectoryLookup,
): Promise<string[]> {
  const account = await lookup.account(mail);
  if (!account) return [];
  const recipients = uniqueRecipients(mailRecipients(mail.facts.kind, account.recipients));
  if (recipients.length === 0) return [];
  const organization = await lookup.organization(mail.organization_id);
  const { subject, text } = paymentMailText(mail.facts, account.language, organization);
  const domain = sender.from.slice(sender.from.lastIndexOf('@') + 1);
  return sender.transport.deliver(
    {
      from: { name: organization.name, address: sender.from },
      ...(organization.email ? { replyTo: organization.email } : {}),
      to: recipients.map((recipient) => ({ name: recipient.name, address: recipient.email })),
      subject,
      text,
      messageId: `<${mail.id}@${domain}>`,
      date: deps.clock.now(),
    },
    `${mail.kind.replaceAll('_', '-')}-${mail.id}`,
  );
}
