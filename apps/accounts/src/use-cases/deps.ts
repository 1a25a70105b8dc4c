import type { Clock } from '@billing/clock';
import type { MikroORM } from '@mikro-orm/postgresql';

/** What every accounts use case needs: the service's own database and its clock. */
export interface AccountsDeps {
  orm: MikroORM;
  clock: Clock;
}
