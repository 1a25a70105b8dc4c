import type { Clock } from '@billing/clock';
import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';

/** What every accounts use case needs: the service's own database and its clock. */
export interface AccountsDeps {
  orm: MikroORM;
  /** Raw queries on the accounts schema, for the hot read paths. */
  pool: pg.Pool;
  clock: Clock;
}

/** Organization and token administration needs only the ORM and the clock (the admin CLI). */
export type IdentityDeps = Pick<AccountsDeps, 'orm' | 'clock'>;
