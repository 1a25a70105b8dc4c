/**
 * The subscription (and draft line) consumers on NATS JetStream (TEST_NATS_URL), against a throwaway schema, a
 * throwaway producer stream and a throwaway durable, so parallel test files and runs never meet.
 */
import { migrate, openOrm, openPool } from '@billing/db';
import { JetStreamBus, subjectFor } from '@billing/events';
import { createLogger } from '@billing/observability';
import { createTestSchema, TestClock, testNatsUrl, uniqueName } from '@billing/testing';
import { accountsEntities } from '../src/db/entities/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { startDraftLineChangesConsumer } from '../src/events/draft-line-changes-consumer.js';
import { startSubscriptionChangesConsumer } from '../src/events/subscription-changes-consumer.js';
import { describeSubscriptionReadModel } from './support/subscription-read-model-suite.js';

describeSubscriptionReadModel('JetStream', async () => {
  const database = await createTestSchema('accounts');
  const orm = await openOrm({
    clientUrl: database.databaseUrl,
    schema: database.schema,
    entities: accountsEntities,
    migrations,
  });
  await migrate(orm);
  const pool = openPool({ clientUrl: database.databaseUrl, schema: database.schema });
  const clock = new TestClock('2026-01-15T09:00:00Z');
  const bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'accounts-read-model-test' });
  const producer = uniqueName('subscriptions_t');
  const consumerName = uniqueName('accounts_subscription_changes');
  const consumer = await startSubscriptionChangesConsumer({
    orm,
    bus,
    clock,
    logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    consumer: consumerName,
    producer,
    retryDelayMs: () => 200,
  });
  const invoicing = uniqueName('invoicing_t');
  const draftLineConsumerName = uniqueName('accounts_draft_line_changes');
  const draftLineConsumer = await startDraftLineChangesConsumer({
    orm,
    bus,
    clock,
    logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    consumer: draftLineConsumerName,
    producer: invoicing,
    retryDelayMs: () => 200,
  });
  const subject = subjectFor(producer, 'subscription.changed');
  return {
    deps: { orm, pool, clock },
    consumer: consumerName,
    publish: (data, messageId) => bus.publish({ subject, messageId, data }),
    draftLineConsumer: draftLineConsumerName,
    publishDraftLine: (eventType, data, messageId) =>
      bus.publish({ subject: subjectFor(invoicing, eventType), messageId, data }),
    async stop() {
      await consumer.stop();
      await draftLineConsumer.stop();
      await bus.close();
      await pool.end();
      await orm.close();
      await database.drop();
    },
  };
});
