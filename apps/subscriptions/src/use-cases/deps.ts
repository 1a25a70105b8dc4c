import type { Clock } from '@billing/clock';
import type { CommittedEventsListener } from '@billing/runtime';
import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * What every subscriptions use case needs: the service's own database and its clock, and who is
 * told each change's events once committed (the accounts read model, before the caller's answer).
 */
export interface SubscriptionsDeps {
  orm: MikroORM;
  clock: Clock;
  committedEvents?: CommittedEventsListener | undefined;
}
