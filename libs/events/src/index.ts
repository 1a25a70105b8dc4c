export { EventBusUnavailableError, isEventBusUnavailable } from './bus/bus-unavailable.js';
export {
  type ConsumeRequest,
  DEFAULT_ACK_WAIT_MS,
  type DeliveredMessage,
  type EventBus,
  type PublishRequest,
  type RunningConsumer,
} from './bus/event-bus.js';
export { InProcessBus, type InProcessBusOptions } from './bus/in-process/in-process-bus.js';
export type { ConsumerLag } from './bus/jetstream/jetstream-bus.js';
export { JetStreamBus, type JetStreamBusOptions } from './bus/jetstream/jetstream-bus.js';
export { subjectMatches } from './bus/subject-filter.js';
export { isTransientFailure } from './consumer/classify-failure.js';
export {
  handleEventOnce,
  handleEventsOnce,
  type InboxEntry,
  recordInboxRows,
  type StartConsumerOptions,
  startConsumer,
} from './consumer/start-consumer.js';
export { eventEntities } from './entities.js';
export {
  decodeEnvelope,
  type EventEnvelope,
  encodeEnvelope,
  MalformedEnvelopeError,
} from './envelope/envelope-codec.js';
export { DUPLICATE_WINDOW_MS, producerOf, producerSubjects, streamNameFor, subjectFor } from './envelope/subjects.js';
export { type IInboxMessage, InboxMessage } from './inbox/inbox-message.entity.js';
export * from './metrics/index.js';
export { type AppendToOutboxInput, appendToOutbox } from './outbox/append-to-outbox.js';
export { type IOutboxMessage, OutboxMessage } from './outbox/outbox-message.entity.js';
export { insertOutboxRecords, type OutboxRecord, outboxInsert, outboxRecord } from './outbox/outbox-record.js';
export { type DrainResult, OutboxRelay, type OutboxRelayOptions } from './relay/outbox-relay.js';
export type { EventsLogger } from './support/logger.js';
