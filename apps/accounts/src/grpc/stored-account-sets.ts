import { accountsV1 } from '@billing/proto';
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { AccountReadModelSnapshots } from '../domain/account-view.js';
import type { EmbeddingSubscription } from '../domain/subscription-set-embeds.js';

/*
 * GetAccount, the hottest read, sends the read model's snapshots as they are stored. A snapshot is
 * the encoded Subscription, DraftLine or PaymentCard message, and an embedded message field is on
 * the wire its tag followed by the message's encoded bytes, length-delimited: writing the stored
 * bytes as the field is the same as decoding them and encoding the message again, without either.
 * The gateway decodes the reply as any other (GetAccountResponse.decode).
 */

// Field numbers of GetAccountResponse and Account (proto/billing/accounts/v1/accounts.proto).
const RESPONSE_ACCOUNT = 1;
const RESPONSE_EMBEDS = 2;
const ACCOUNT_SUBSCRIPTIONS = 47;
const ACCOUNT_DRAFT_LINES = 48;
const ACCOUNT_PAYMENT_CARDS = 49;
// Field numbers of Subscription (proto/billing/subscriptions/v1/subscriptions.proto) the embeds need.
const SUBSCRIPTION_ACCOUNT = 2;
const SUBSCRIPTION_PAYMENT_TERMS = 17;
const SUBSCRIPTION_CHURN_REASON = 30;

const STORED_SETS = Symbol('the account read model snapshots, written as stored');

/** An account message whose subscriptions, draft lines and cards travel as their stored snapshots. */
export type AccountWithStoredSets = accountsV1.Account & { [STORED_SETS]?: AccountReadModelSnapshots };

/** `account` (its three sets empty) with the snapshots encodeGetAccountResponse writes as its sets. */
export function withStoredSets(account: accountsV1.Account, stored: AccountReadModelSnapshots): AccountWithStoredSets {
  if (account.subscriptions.length || account.draft_lines.length || account.payment_cards.length) {
    throw new Error('An account sent with its stored sets must not carry decoded ones too.');
  }
  return Object.assign(account, { [STORED_SETS]: stored });
}

/**
 * GetAccount's response serializer: GetAccountResponse.encode, except that an account made by
 * withStoredSets gets its sets from the stored snapshots, in their order (after its other fields:
 * a decoder reads fields in any order and appends repeated ones in the order met).
 */
export function encodeGetAccountResponse(response: accountsV1.GetAccountResponse): Buffer {
  const writer = new BinaryWriter();
  if (response.account !== undefined) {
    const account = response.account as AccountWithStoredSets;
    accountsV1.Account.encode(account, writer.uint32(tag(RESPONSE_ACCOUNT)).fork());
    const stored = account[STORED_SETS];
    if (stored) {
      for (const snapshot of stored.subscriptions) writer.uint32(tag(ACCOUNT_SUBSCRIPTIONS)).bytes(snapshot);
      for (const snapshot of stored.draft_lines) writer.uint32(tag(ACCOUNT_DRAFT_LINES)).bytes(snapshot);
      for (const snapshot of stored.payment_cards) writer.uint32(tag(ACCOUNT_PAYMENT_CARDS)).bytes(snapshot);
    }
    writer.join();
  }
  if (response.embeds !== undefined) {
    accountsV1.SubscriptionSetEmbeds.encode(response.embeds, writer.uint32(tag(RESPONSE_EMBEDS)).fork()).join();
  }
  const bytes = writer.finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * What the reply's embeds need of a stored subscription (its account, churn reason and payment
 * terms), read from the snapshot without decoding the rest. Proto3 rules: an unset string is
 * empty, a later occurrence of a field replaces an earlier one, other fields are skipped.
 */
export function embeddingFacts(snapshot: Uint8Array): EmbeddingSubscription {
  const reader = new BinaryReader(snapshot);
  let account = '';
  let churnReason = '';
  let paymentTerms: number | null = null;
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === SUBSCRIPTION_ACCOUNT && wireType === WireType.LengthDelimited) account = reader.string();
    else if (field === SUBSCRIPTION_CHURN_REASON && wireType === WireType.LengthDelimited)
      churnReason = reader.string();
    else if (field === SUBSCRIPTION_PAYMENT_TERMS && wireType === WireType.Varint) paymentTerms = reader.int32();
    else reader.skip(wireType, field);
  }
  return { account, churn_reason: churnReason || null, payment_terms: paymentTerms };
}

const tag = (field: number): number => (field << 3) | WireType.LengthDelimited;
