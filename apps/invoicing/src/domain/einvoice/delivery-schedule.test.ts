import { describe, expect, it } from 'vitest';
import { afterDeliveryAttempt } from './delivery-schedule.js';

const at = new Date('2026-02-01T10:00:00Z');

describe('e-invoice delivery schedule', () => {
  it('a 2xx delivers; anything else retries after 1 min, 5 min, 30 min, 2 h, 12 h, 24 h, then fails', () => {
    expect(afterDeliveryAttempt(0, 202, at)).toEqual({ status: 'delivered', step: 0, nextAttemptAt: null });
    expect(afterDeliveryAttempt(0, 503, at)).toEqual({
      status: 'pending',
      step: 1,
      nextAttemptAt: new Date('2026-02-01T10:01:00Z'),
    });
    expect(afterDeliveryAttempt(1, null, at).nextAttemptAt).toEqual(new Date('2026-02-01T10:05:00Z'));
    expect(afterDeliveryAttempt(2, 400, at).nextAttemptAt).toEqual(new Date('2026-02-01T10:30:00Z'));
    expect(afterDeliveryAttempt(3, 500, at).nextAttemptAt).toEqual(new Date('2026-02-01T12:00:00Z'));
    expect(afterDeliveryAttempt(4, 500, at).nextAttemptAt).toEqual(new Date('2026-02-01T22:00:00Z'));
    expect(afterDeliveryAttempt(5, 500, at).nextAttemptAt).toEqual(new Date('2026-02-02T10:00:00Z'));
    expect(afterDeliveryAttempt(6, 500, at)).toEqual({ status: 'failed', step: 7, nextAttemptAt: null });
  });
});
