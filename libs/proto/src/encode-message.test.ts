import { describe, expect, it } from 'vitest';
import { encodeMessage } from './encode-message.js';
import { EventEnvelope } from './gen/billing/events/v1/envelope.js';

const envelope = (payloadBytes: number, fill = 7): EventEnvelope =>
  EventEnvelope.fromPartial({
    event_id: '0b4f2d3c-5e6f-4a1b-8c9d-0e1f2a3b4c5d',
    event_type: 'invoice.issued',
    organization_id: '7d6c5b4a-3f2e-4d1c-9b8a-7f6e5d4c3b2a',
    occurred_at: new Date('2026-11-28T06:45:00.000Z'),
    payload_type: 'billing.events.v1.InvoiceChanged',
    payload: Buffer.alloc(payloadBytes, fill),
  });

const fresh = (message: EventEnvelope) => EventEnvelope.encode(message).finish();

describe('encodeMessage', () => {
  it('gives the bytes of a new writer, message after message, larger and smaller', () => {
    for (const size of [0, 10, 300, 1_500, 40, 5_000, 1]) {
      const message = envelope(size, size % 251);
      expect(encodeMessage(EventEnvelope, message)).toEqual(fresh(message));
      expect(EventEnvelope.decode(encodeMessage(EventEnvelope, message))).toEqual(message);
    }
  });

  it('answers bytes of their own: a later message does not change an earlier answer', () => {
    const first = encodeMessage(EventEnvelope, envelope(1_500, 1));
    const copy = Uint8Array.from(first);
    encodeMessage(EventEnvelope, envelope(1_500, 2));
    expect(first).toEqual(copy);
  });

  it('encodes the next message right after one that failed half-way', () => {
    // occurred_at is written after the ids; an invalid date throws with the ids already written.
    const broken = { ...envelope(100), occurred_at: new Date(Number.NaN) };
    expect(() => encodeMessage(EventEnvelope, broken)).toThrow();
    const message = envelope(200, 3);
    expect(encodeMessage(EventEnvelope, message)).toEqual(fresh(message));
  });

  it('encodes a message larger than the kept buffer, and a small one after it', () => {
    const large = envelope(200_000, 9);
    expect(encodeMessage(EventEnvelope, large)).toEqual(fresh(large));
    const small = envelope(20, 4);
    expect(encodeMessage(EventEnvelope, small)).toEqual(fresh(small));
  });
});
