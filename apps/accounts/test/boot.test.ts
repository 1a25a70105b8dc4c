import { bootCheck } from '@billing/runtime';
import { createTestSchema } from '@billing/testing';
import { expect, it } from 'vitest';
import { accountsModule } from '../src/service.js';

it('starts on its own schema, migrated, and answers the gRPC health check', async () => {
  const database = await createTestSchema('accounts');
  try {
    expect(await bootCheck(accountsModule, database)).toEqual({
      health: 'SERVING',
      tables: [
        'account',
        'account_budget',
        'account_charge',
        'account_draft_line',
        'account_invoice',
        'account_payment_card',
        'account_payment_means',
        'account_subscription',
        'api_user',
        'audit_log',
        'bank_account',
        'churn_reason',
        'einvoice_field_mapping',
        'export_job',
        'export_page',
        'gateway_credential',
        'inbox',
        'mikro_orm_migrations',
        'organization',
        'outbox',
        'payment_gateway_account',
        'recipient',
        'self_service_sign_in',
        'webhook',
        'webhook_attempt',
        'webhook_delivery',
      ],
    });
  } finally {
    await database.drop();
  }
});
