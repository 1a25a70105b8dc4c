import type pg from 'pg';

/** How often, over a run's polls, a service's connections were seen waiting for an advisory lock. */
export interface AdvisoryLockWaits {
  /** Share of the polls in which at least one of its connections waited (0–1). */
  polls_waiting: number;
  /** Its connections waiting, on average over all polls. */
  mean_waiting: number;
}

/**
 * Samples, at each poll of a run, which services' connections (by application_name: each service
 * names its own) wait for an advisory lock. Analytics' consumers take turns under an
 * organization's lock (apps/analytics/src/db/event-log.ts), so a run in which one of them nearly
 * always waits is a run whose activities are as fast as that lock's holder: the serial stage.
 * pg_stat_activity is a snapshot per poll, not a trace: a share, not a duration.
 */
export class AdvisoryLockSampler {
  private polls = 0;
  private readonly waiting = new Map<string, { polls: number; connections: number }>();

  constructor(
    private readonly db: pg.Pool,
    private readonly database: string,
  ) {}

  async sample(): Promise<void> {
    const { rows } = await this.db.query<{ application_name: string; waiting: string }>(
      `select application_name, count(*)::text as waiting
         from pg_stat_activity
        where datname = $1 and wait_event_type = 'Lock' and wait_event = 'advisory'
        group by application_name`,
      [this.database],
    );
    this.polls += 1;
    for (const row of rows) {
      const seen = this.waiting.get(row.application_name) ?? { polls: 0, connections: 0 };
      seen.polls += 1;
      seen.connections += Number(row.waiting);
      this.waiting.set(row.application_name, seen);
    }
  }

  /** The polls taken and, per application_name seen waiting at least once, its figures. */
  result(): { polls: number; waits: Record<string, AdvisoryLockWaits> } {
    const share = (count: number) => (this.polls === 0 ? 0 : Math.round((count / this.polls) * 1000) / 1000);
    return {
      polls: this.polls,
      waits: Object.fromEntries(
        [...this.waiting.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, seen]) => [name, { polls_waiting: share(seen.polls), mean_waiting: share(seen.connections) }]),
      ),
    };
  }
}
