/**
 * The accounts service as `npm start` runs it without NATS_URL: the ServiceModule started by
 * libs/runtime on the in-process bus, its worker consuming `subscriptions.subscription.changed`
 * as the subscriptions service publishes it and `invoicing.draft_invoice_line.*` as invoicing does
 * (real producer names: the bus lives in this process).
 */
import { openPool } from '@billing/db';
import { InProcessBus, subjectFor } from '@billing/events';
import { createLogger } from '@billing/observability';
import { startService } from '@billing/runtime';
import { createTestSchema, TestClock } from '@billing/testing';
import { draftLineChangesConsumerName } from '../src/events/draft-line-changes-consumer.js';
import { subscriptionChangesConsumerName } from '../src/events/subscription-changes-consumer.js';
import { accountsModule } from '../src/service.js';
import { describeSubscriptionReadModel } from './support/subscription-read-model-suite.js';

describeSubscriptionReadModel('in-process bus', async () => {
  const database = await createTestSchema('accounts');
  const clock = new TestClock('2026-01-15T09:00:00Z');
  const bus = new InProcessBus();
  const service = await startService(accountsModule, {
    databaseUrl: database.databaseUrl,
    schema: database.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    bus,
    migrateOnStart: true,
  });
  const pool = openPool({ clientUrl: database.databaseUrl, schema: database.schema });
  const subject = subjectFor('subscriptions', 'subscription.changed');
  return {
    deps: { orm: service.orm, pool, clock },
    consumer: subscriptionChangesConsumerName(database.schema),
    publish: (data, messageId) => bus.publish({ subject, messageId, data }),
    draftLineConsumer: draftLineChangesConsumerName(database.schema),
    publishDraftLine: (eventType, data, messageId) =>
      bus.publish({ subject: subjectFor('invoicing', eventType), messageId, data }),
    async stop() {
      await pool.end();
      await service.stop();
      await bus.close();
      await database.drop();
    },
  };
});
