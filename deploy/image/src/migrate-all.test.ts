import { describe, expect, it } from 'vitest';
import { migrationTargets } from './migrate-all.js';

const URL = 'postgresql://billing@db:5432/billing';

const summary = (args: string[], env: NodeJS.ProcessEnv) =>
  migrationTargets(args, env).map((target) => [target.module.name, target.schema, target.databaseUrl]);

describe('migrationTargets (the migrate command line)', () => {
  it('no arguments: every service on its own default schema, in a fixed order', () => {
    expect(summary([], { DATABASE_URL: URL })).toEqual([
      ['accounts', 'accounts', URL],
      ['subscriptions', 'subscriptions', URL],
      ['invoicing', 'invoicing', URL],
      ['analytics', 'analytics', URL],
      ['payments', 'payments', URL],
    ]);
  });

  it('service=schema picks the schema; <SERVICE>_DATABASE_URL gives one service its own database', () => {
    const own = 'postgresql://payments@payments-db:5432/payments';
    expect(summary(['payments=payments_eu', 'accounts'], { DATABASE_URL: URL, PAYMENTS_DATABASE_URL: own })).toEqual([
      ['payments', 'payments_eu', own],
      ['accounts', 'accounts', URL],
    ]);
  });

  it.each([
    [
      ['gateway'],
      { DATABASE_URL: URL },
      '"gateway" is not service or service=schema (services: accounts, subscriptions, invoicing, analytics, payments)',
    ],
    [
      ['accounts=a=b'],
      { DATABASE_URL: URL },
      '"accounts=a=b" is not service or service=schema (services: accounts, subscriptions, invoicing, analytics, payments)',
    ],
    [['accounts', 'accounts=other'], { DATABASE_URL: URL }, 'accounts is named twice'],
    [['invoicing=Invoicing'], { DATABASE_URL: URL }, 'invoicing: "Invoicing" is not a schema name'],
    [['analytics'], {}, 'analytics: neither ANALYTICS_DATABASE_URL nor DATABASE_URL is set'],
    [
      ['analytics'],
      { DATABASE_URL: 'mysql://root@db/billing' },
      'analytics: the database URL is not a postgresql:// URL',
    ],
  ])('refuses %j (env %j): %s', (args, env, message) => {
    expect(() => migrationTargets(args, env)).toThrow(message);
  });
});
