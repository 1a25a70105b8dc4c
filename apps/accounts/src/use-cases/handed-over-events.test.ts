import { describe, expect, it } from 'vitest';
import { HandedOverEvents } from './handed-over-events.js';

const EVENT = '6f1c1f0e-8a61-4c1b-9d8e-2f3a4b5c6d7e';

describe('HandedOverEvents', () => {
  it('names a committed pair once, whatever the case of its event id', () => {
    const handedOver = new HandedOverEvents();
    handedOver.committed([{ consumer: 'accounts-invoice-changes', eventId: EVENT.toUpperCase() }]);
    expect(handedOver.takeDone('accounts-subscription-changes', EVENT)).toBe(false);
    expect(handedOver.takeDone('accounts-invoice-changes', EVENT)).toBe(true);
    expect(handedOver.takeDone('accounts-invoice-changes', EVENT)).toBe(false);
  });

  it('forgets the oldest pairs beyond its limit', () => {
    const handedOver = new HandedOverEvents(2);
    handedOver.committed(['a', 'b', 'c'].map((eventId) => ({ consumer: 'c', eventId })));
    expect(['a', 'b', 'c'].map((eventId) => handedOver.takeDone('c', eventId))).toEqual([false, true, true]);
  });
});
