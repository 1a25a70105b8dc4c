import { bootCheck } from '@billing/runtime';
import { createTestSchema } from '@billing/testing';
import { expect, it } from 'vitest';
import { paymentsModule } from '../src/service.js';

it('starts on its own schema, migrated, and answers the gRPC health check', async () => {
  const database = await createTestSchema('payments');
  try {
    expect(await bootCheck(paymentsModule, database)).toEqual({
      health: 'SERVING',
      tables: [
        'audit_log',
        'card_registration',
        'inbox',
        'invoice_payment',
        'mikro_orm_migrations',
        'outbox',
        'payment_attempt',
        'payment_card',
        'payment_mail',
      ],
    });
  } finally {
    await database.drop();
  }
});
