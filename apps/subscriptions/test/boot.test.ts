import { bootCheck } from '@billing/runtime';
import { createTestSchema } from '@billing/testing';
import { expect, it } from 'vitest';
import { subscriptionsModule } from '../src/service.js';

it('starts on its own schema, migrated, and answers the gRPC health check', async () => {
  const database = await createTestSchema('subscriptions');
  try {
    expect(await bootCheck(subscriptionsModule, database)).toEqual({
      health: 'SERVING',
      tables: [
        'audit_log',
        'charge',
        'contract',
        'contract_tier',
        'export_job',
        'export_page',
        'inbox',
        'mikro_orm_migrations',
        'organization_money',
        'outbox',
        'plan',
        'plan_terms',
        'subscription',
      ],
    });
  } finally {
    await database.drop();
  }
});
