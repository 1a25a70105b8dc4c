import { bootCheck } from '@billing/runtime';
import { createTestSchema } from '@billing/testing';
import { expect, it } from 'vitest';
import { analyticsModule } from '../src/service.js';

it('starts on its own schema, migrated, and answers the gRPC health check', async () => {
  const database = await createTestSchema('analytics');
  try {
    expect(await bootCheck(analyticsModule, database)).toEqual({
      health: 'SERVING',
      tables: [
        'account',
        'account_activity',
        'activity',
        'audit_log',
        'churn_reason',
        'event_log',
        'export_job',
        'export_page',
        'inbox',
        'mikro_orm_migrations',
        'mrr_totals',
        'organization',
        'outbox',
        'plan',
        'plan_terms',
        'subscription_mrr',
      ],
    });
  } finally {
    await database.drop();
  }
});
