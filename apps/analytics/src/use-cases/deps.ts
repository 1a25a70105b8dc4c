import type { Clock } from '@billing/clock';
import type { MikroORM } from '@mikro-orm/postgresql';

/** What the analytics use cases need: the database and the service clock. */
export interface AnalyticsDeps {
  orm: MikroORM;
  clock: Clock;
}
