import { openSecret, sealingKey } from '@billing/config';
import { AppError } from '@billing/errors';
import { createGrpcClient } from '@billing/grpc';
import { accountsV1 } from '@billing/proto';
import type { AccountFacts, Directory } from '../domain/directory.js';

/** Accounts asked for in one GetAccountsByUuid call. */
const ACCOUNTS_PER_CALL = 200;

/** What payments takes of an account: GetAccount and GetAccountsByUuid answer the same fields and recipients. */
function accountFacts(account: accountsV1.Account): AccountFacts {
  return {
    uuid: account.uuid,
    code: account.code,
    name: account.display_name,
    language: account.language || 'en',
    recipients: account.recipients.map((recipient) => ({
      name: recipient.name,
      email: recipient.email,
      receivePaymentConfirmation: recipient.receive_payment_confirmation,
      receivePaymentCardNotifications: recipient.receive_payment_card_notifications,
    })),
  };
}

/**
 * The Directory over gRPC to the accounts service. Gateway credentials arrive sealed and are
 * opened here with GATEWAY_CREDENTIALS_KEY; the opened values go to the gateway adapter only.
 */
export function accountsDirectory(address: string, credentialsKey: string | undefined): Directory {
  const accounts = createGrpcClient(accountsV1.AccountsServiceClient, address);
  const identity = createGrpcClient(accountsV1.IdentityServiceClient, address);
  return {
    async organization(context) {
      const { organization } = await identity.call('getOrganization', {}, { context });
      if (!organization) throw AppError.internal('The organization is missing.');
      return {
        timeZone: organization.time_zone,
        testClockTime: organization.test_clock_time ?? null,
        dunningDays: organization.dunning_schedule_days,
        features: organization.features,
        name: organization.name,
        email: organization.email,
      };
    },
    async account(context, accountId) {
      const { accounts: summaries } = await accounts.call(
        'getAccountSummaries',
        { uuids: [accountId], codes: [] },
        { context },
      );
      const summary = summaries[0];
      if (!summary) return null;
      const { account } = await accounts.call('getAccount', { code: summary.code }, { context });
      return account ? accountFacts(account) : null;
    },
    async accounts(context, accountIds) {
      const found = new Map<string, AccountFacts>();
      // In slices: one answer for very many accounts would pass gRPC's message limit.
      const unique = [...new Set(accountIds)];
      for (let start = 0; start < unique.length; start += ACCOUNTS_PER_CALL) {
        const uuids = unique.slice(start, start + ACCOUNTS_PER_CALL);
        const { accounts: read } = await accounts.call('getAccountsByUuid', { uuids }, { context });
        for (const account of read) found.set(account.uuid, accountFacts(account));
      }
      return found;
    },
    async gatewayCredentials(context, gateway) {
      const { sealed } = await identity.call('getGatewayCredentials', { gateway }, { context });
      if (!sealed) return null;
      // A key missing or different from the one that sealed them is the operator's to fix: logged
      // by the caller as an internal error, never shown to the API client.
      const opened = openSecret(sealingKey(credentialsKey), sealed);
      return JSON.parse(opened) as Record<string, string>;
    },
    close() {
      accounts.close();
      identity.close();
    },
  };
}
