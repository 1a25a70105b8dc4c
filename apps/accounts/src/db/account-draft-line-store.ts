import type { EntityManager } from '@mikro-orm/postgresql';
import { type DraftLineState, supersedes } from '../domain/draft-line-state.js';
import { AccountDraftLineEntity, type AccountDraftLineRow } from './entities/account-draft-line.entity.js';
import { type RecordOutcome, recordLatestState } from './latest-state-store.js';

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
  const fields = {
    account_id: state.accountId,
    version: state.version,
    created_date: state.createdAt,
    snapshot: Buffer.from(snapshot),
    removed: state.removed,
    updated_at: now,
  };
  const owner = { organizationId: state.organizationId, id: state.lineId };
  return recordLatestState(em, AccountDraftLineEntity, owner, fields, (stored) => supersedes(stored, state));
}

export async function findDraftLineState(
  em: EntityManager,
  organizationId: string,
  lineId: string,
): Promise<AccountDraftLineRow | null> {
  return em.findOne(AccountDraftLineEntity, { organization_id: organizationId, id: lineId });
}
