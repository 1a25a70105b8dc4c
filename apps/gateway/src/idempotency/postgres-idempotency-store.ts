import { randomUUID } from 'node:crypto';
import type { Clock } from '@billing/clock';
import type pg from 'pg';
import { gatewayTable } from '../storage/gateway-storage.js';
import {
  decideClaim,
  IDEMPOTENCY_RETENTION_MS,
  RUNNING_CLAIM_LEASE_MS,
  type StoredIdempotencyKey,
  type StoredResponse,
} from './idempotency-rules.js';
import type { ClaimResult, IdempotencyClaim, IdempotencyClaimRequest, IdempotencyStore } from './idempotency-store.js';

export interface PostgresIdempotencyStoreOptions {
  /** The gateway's own schema; tests pass a throwaway one. */
  schema?: string;
}

export interface IdempotencyCleanupSchedule {
  clock: Clock;
  /** How often expired keys are deleted (default hourly: expired rows are never read, only kept). */
  intervalMs?: number;
  onError?: (error: unknown) => void;
}

const TABLE = 'idempotency_keys';
/** A claim races only with an expiry or a cleanup between its two statements; a few rounds settle it. */
const MAX_CLAIM_ROUNDS = 5;

interface KeyRow {
  fingerprint: string;
  request_id: string;
  started_at: Date;
  expires_at: Date;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_content_type: string | null;
  response_body: string | null;
}

/**
 * Idempotency keys in the gateway's schema, one row per (organization, key). The claim is an
 * INSERT ... ON CONFLICT DO UPDATE ... WHERE: the row's primary key makes one request of any
 * replica the holder, and the WHERE lets a request take over only an expired key or an abandoned
 * claim (the same conditions decideClaim names). Everyone else reads the row and is told to replay,
 * wait (409) or stop (422).
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  private readonly schemaName: string;
  private readonly table: string;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresIdempotencyStoreOptions = {},
  ) {
    ({ schemaName: this.schemaName, qualified: this.table } = gatewayTable(
      options.schema ?? 'gateway',
      TABLE,
      'idempotency',
    ));
  }

  /** Creates the schema and table when missing, under an advisory lock (replicas start together). */
  async ensureSchema(): Promise<void> {
    await this.pool.query(
      `SELECT pg_advisory_xact_lock(hashtext('${this.schemaName}.${TABLE}'));
       CREATE SCHEMA IF NOT EXISTS "${this.schemaName}";
       CREATE TABLE IF NOT EXISTS ${this.table} (
         organization_id text NOT NULL,
         idempotency_key text NOT NULL,
         fingerprint text NOT NULL,
         claim_token text NOT NULL,
         request_id text NOT NULL,
         started_at timestamptz NOT NULL,
         expires_at timestamptz NOT NULL,
         response_status integer,
         response_headers jsonb,
         response_content_type text,
         response_body text,
         PRIMARY KEY (organization_id, idempotency_key)
       );
       CREATE INDEX IF NOT EXISTS "${TABLE}_expires_at" ON ${this.table} (expires_at)`,
    );
  }

  async claim(request: IdempotencyClaimRequest): Promise<ClaimResult> {
    for (let round = 0; round < MAX_CLAIM_ROUNDS; round++) {
      const token = randomUUID();
      if (await this.tryClaim(request, token)) {
        return { kind: 'claimed', claim: { organizationId: request.organizationId, key: request.key, token } };
      }
      const existing = await this.read(request.organizationId, request.key);
      const decision = decideClaim(existing, request.fingerprint, request.now);
      // 'claim' here means the row expired or was cleaned up since the insert looked: try again.
      if (decision.kind !== 'claim') return decision;
    }
    throw new Error(`Idempotency key claim did not settle after ${MAX_CLAIM_ROUNDS} rounds`);
  }

  private async tryClaim(request: IdempotencyClaimRequest, token: string): Promise<boolean> {
    const result = await this.pool.query({
      name: `idempotency-claim:${this.schemaName}`,
      text: `INSERT INTO ${this.table} AS k
               (organization_id, idempotency_key, fingerprint, claim_token, request_id, started_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (organization_id, idempotency_key) DO UPDATE SET
               fingerprint = EXCLUDED.fingerprint, claim_token = EXCLUDED.claim_token,
               request_id = EXCLUDED.request_id, started_at = EXCLUDED.started_at,
               expires_at = EXCLUDED.expires_at, response_status = NULL, response_headers = NULL,
               response_content_type = NULL, response_body = NULL
             WHERE k.expires_at <= $6
                OR (k.response_status IS NULL AND k.fingerprint = EXCLUDED.fingerprint AND k.started_at <= $8)
             RETURNING 1`,
      values: [
        request.organizationId,
        request.key,
        request.fingerprint,
        token,
        request.requestId,
        request.now,
        new Date(request.now.getTime() + IDEMPOTENCY_RETENTION_MS),
        new Date(request.now.getTime() - RUNNING_CLAIM_LEASE_MS),
      ],
    });
    return (result.rowCount ?? 0) === 1;
  }

  private async read(organizationId: string, key: string): Promise<StoredIdempotencyKey | null> {
    const result = await this.pool.query<KeyRow>({
      name: `idempotency-read:${this.schemaName}`,
      text: `SELECT fingerprint, request_id, started_at, expires_at, response_status, response_headers,
                    response_content_type, response_body
               FROM ${this.table} WHERE organization_id = $1 AND idempotency_key = $2`,
      values: [organizationId, key],
    });
    const row = result.rows[0];
    if (!row) return null;
    return {
      fingerprint: row.fingerprint,
      requestId: row.request_id,
      startedAt: row.started_at,
      expiresAt: row.expires_at,
      response:
        row.response_status === null
          ? null
          : {
              status: row.response_status,
              headers: row.response_headers ?? {},
              contentType: row.response_content_type,
              body: row.response_body,
            },
    };
  }

  async complete(claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
    await this.pool.query({
      name: `idempotency-complete:${this.schemaName}`,
      text: `UPDATE ${this.table}
                SET response_status = $4, response_headers = $5, response_content_type = $6, response_body = $7
              WHERE organization_id = $1 AND idempotency_key = $2 AND claim_token = $3 AND response_status IS NULL`,
      values: [
        claim.organizationId,
        claim.key,
        claim.token,
        response.status,
        JSON.stringify(response.headers),
        response.contentType,
        response.body,
      ],
    });
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    await this.pool.query({
      name: `idempotency-release:${this.schemaName}`,
      text: `DELETE FROM ${this.table}
              WHERE organization_id = $1 AND idempotency_key = $2 AND claim_token = $3 AND response_status IS NULL`,
      values: [claim.organizationId, claim.key, claim.token],
    });
  }

  /** Deletes expired keys; returns how many. Any replica may run it. */
  async deleteExpiredKeys(now: Date): Promise<number> {
    const result = await this.pool.query(`DELETE FROM ${this.table} WHERE expires_at <= $1`, [now]);
    return result.rowCount ?? 0;
  }

  /** Runs deleteExpiredKeys periodically; returns a function that stops it. The timer does not keep the process alive. */
  startCleanup({ clock, intervalMs = 60 * 60 * 1000, onError }: IdempotencyCleanupSchedule): () => void {
    const timer = setInterval(() => {
      this.deleteExpiredKeys(clock.now()).catch((error: unknown) => onError?.(error));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
