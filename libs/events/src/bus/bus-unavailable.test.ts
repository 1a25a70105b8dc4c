import { errors } from '@nats-io/transport-node';
import { expect, it } from 'vitest';
import { EventBusUnavailableError, isEventBusUnavailable } from './bus-unavailable.js';

it('takes an unanswered or unreachable bus, also as a cause, for unavailable', () => {
  expect(isEventBusUnavailable(new EventBusUnavailableError('not made within 3000 ms'))).toBe(true);
  expect(isEventBusUnavailable(new errors.TimeoutError())).toBe(true);
  expect(isEventBusUnavailable(new errors.ClosedConnectionError())).toBe(true);
  expect(isEventBusUnavailable(new errors.NoRespondersError('$JS.API.CONSUMER.INFO.X.Y'))).toBe(true);
  expect(isEventBusUnavailable(new Error('start failed', { cause: new errors.ConnectionError('refused') }))).toBe(true);
  expect(isEventBusUnavailable(new errors.RequestError('request failed', { cause: new errors.TimeoutError() }))).toBe(
    true,
  );
});

it('takes any other failure for a fault a retry would meet again', () => {
  expect(isEventBusUnavailable(new Error('Durable S/d filters "a.>", not "b.>"'))).toBe(false);
  expect(isEventBusUnavailable(new errors.InvalidSubjectError('a b'))).toBe(false);
  // A failed request is unavailable only for what it wraps: a permission violation is not.
  const denied = new errors.PermissionViolationError('denied', 'publish', '$JS.API.CONSUMER.CREATE.S');
  expect(isEventBusUnavailable(new errors.RequestError('request failed', { cause: denied }))).toBe(false);
  expect(isEventBusUnavailable('timeout')).toBe(false);
  expect(isEventBusUnavailable(undefined)).toBe(false);
});
