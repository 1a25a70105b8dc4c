export {
  type ConsumerLagSource,
  consumerAckPendingMessages,
  consumerPendingMessages,
  watchConsumerLag,
} from './consumer-metrics.js';
export {
  type OutboxMetricsSource,
  outboxOldestPendingAgeSeconds,
  outboxPendingMessages,
  watchOutbox,
} from './outbox-metrics.js';
