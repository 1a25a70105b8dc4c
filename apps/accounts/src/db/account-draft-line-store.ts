import type { EntityManager } from '@mikro-orm/postgresql';
import { type DraftLineState, supersedes } from '../domain/draft-line-state.js';
import { AccountDraftLineEntity, type AccountDraftLineRow } from './entities/account-draft-line.entity.js';
import { type RecordOutcome, recordLatestState, recordLatestStates } from './latest-state-store.js';

/** A draft line's state as its read-model row stores it, and the encoded DraftLine reads serve. */
export interface DraftLineStateRecord {
  state: DraftLineState;
  snapshot: Uint8Array;
}

function latestDraftLineState({ state, snapshot }: DraftLineStateRecord, now: Date) {
  return {
    owner: { organizationId: state.organizationId, id: state.lineId },
    fields: {
      account_id: state.accountId,
      version: state.version,
      created_date: state.createdAt,
      snapshot: Buffer.from(snapshot),
      removed: state.removed,
      updated_at: now,
    },
    supersedes: (stored: AccountDraftLineRow) => supersedes(stored, state),
  };
}

/**
 * Stores a draft line's state (with `snapshot`, the encoded DraftLine account reads serve) unless
 * the stored one wins (domain rule `supersedes`). A removal arriving first is stored too, as a
 * tombstone, so the line's older states arriving after it find it.
 */
export function recordDraftLineState(
  em: EntityManager,
  state: DraftLineState,
  snapshot: Uint8Array,
  now: Date,
): Promise<RecordOutcome> {
  const latest = latestDraftLineState({ state, snapshot }, now);
  return recordLatestState(em, AccountDraftLineEntity, latest.owner, latest.fields, latest.supersedes);
}

/** recordDraftLineState for a batch of states, as one after the other in list order (recordLatestStates). */
export function recordDraftLineStates(
  em: EntityManager,
  records: readonly DraftLineStateRecord[],
  now: Date,
): Promise<RecordOutcome[]> {
  return recordLatestStates(
    em,
    AccountDraftLineEntity,
    records.map((record) => latestDraftLineState(record, now)),
  );
}

export async function findDraftLineState(
  em: EntityManager,
  organizationId: string,
  lineId: string,
): Promise<AccountDraftLineRow | null> {
  return em.findOne(AccountDraftLineEntity, { organization_id: organizationId, id: lineId });
}
