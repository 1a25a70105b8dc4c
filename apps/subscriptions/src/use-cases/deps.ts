import type { Clock } from '@billing/clock';
import type { MikroORM } from '@mikro-orm/postgresql';

/** What every subscriptions use case needs: the service's own database and its clock. */
export interface SubscriptionsDeps {
  orm: MikroORM;
  clock: Clock;
}
