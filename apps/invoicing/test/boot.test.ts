import { bootCheck } from '@billing/runtime';
import { createTestSchema } from '@billing/testing';
import { expect, it } from 'vitest';
import { invoicingModule } from '../src/service.js';

it('starts on its own schema, migrated, and answers the gRPC health check', async () => {
  const database = await createTestSchema('invoicing');
  try {
    expect(await bootCheck(invoicingModule, database)).toEqual({
      health: 'SERVING',
      tables: [
        'audit_log',
        'credit_application',
        'draft_invoice_line',
        'einvoice_delivery',
        'export_job',
        'export_page',
        'inbox',
        'invoice',
        'invoice_line',
        'invoice_number_counter',
        'invoice_read_model_backfill',
        'invoice_reminder',
        'invoiced_charge',
        'mail_job',
        'mikro_orm_migrations',
        'outbox',
        'rejected_charge',
      ],
    });
  } finally {
    await database.drop();
  }
});
