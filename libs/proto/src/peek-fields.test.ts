import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { describe, expect, it } from 'vitest';
import { InvoiceChanged } from './gen/billing/events/v1/invoicing.js';
import { SubscriptionChanged } from './gen/billing/events/v1/subscriptions.js';
import { peekMessage, peekRepeatedMessages, peekStrings } from './peek-fields.js';

// SubscriptionChanged: subscription = 1, change = 2, new_pricing = 4, change_type = 6.
// InvoiceChanged: invoice = 1; Invoice: collection_method = 12.
const renewal = SubscriptionChanged.encode(
  SubscriptionChanged.fromPartial({
    subscription: { uuid: 'b1c2', account: 'acme', plan: { name: 'Pro ✓' } },
    change: 'renewed',
    new_pricing: { currency: 'DKK', quantity: 2, unit_price: '100.00' },
    effective_at: new Date('2026-12-01T00:00:00.000Z'),
    change_type: 'immediate',
    charges: ['c1', 'c2'],
  }),
).finish();

const collectionMethodOf = (bytes: Uint8Array) => {
  const invoice = peekMessage(bytes, 1);
  return invoice === undefined ? undefined : (peekStrings(invoice, [12])[0] ?? '');
};

describe('peekStrings', () => {
  it('reads the asked string fields past the others, as decode has them', () => {
    const decoded = SubscriptionChanged.decode(renewal);
    expect(peekStrings(renewal, [2, 6])).toEqual([decoded.change, decoded.change_type]);
    expect(peekStrings(renewal, [6, 2])).toEqual(['immediate', 'renewed']);
  });

  it('answers undefined for a field that is absent, and the last of a repeated one', () => {
    const changeOnly = SubscriptionChanged.encode(SubscriptionChanged.fromPartial({ change: 'renewed' })).finish();
    expect(peekStrings(changeOnly, [6, 2])).toEqual([undefined, 'renewed']);
    const twice = new BinaryWriter().uint32(18).string('renewed').uint32(18).string('activated').finish();
    expect(SubscriptionChanged.decode(twice).change).toBe('activated');
    expect(peekStrings(twice, [2])).toEqual(['activated']);
  });

  it('skips an occurrence of another wire type, and stops where decode stops (a zero or end-group tag)', () => {
    // Field 2 as a varint (wire type 0): decode skips it, so does peek.
    const mistyped = new BinaryWriter().uint32(16).uint32(7).uint32(50).string('at_renewal').finish();
    expect(SubscriptionChanged.decode(mistyped).change).toBe('');
    expect(peekStrings(mistyped, [2, 6])).toEqual([undefined, 'at_renewal']);
    const stopped = new Uint8Array([...new BinaryWriter().uint32(18).string('renewed').finish(), 0, 18, 1, 120]);
    expect(SubscriptionChanged.decode(stopped).change).toBe('renewed');
    expect(peekStrings(stopped, [2])).toEqual(['renewed']);
    // An end-group tag (field 1, wire type 4) ends it the same way.
    const ended = new Uint8Array([...new BinaryWriter().uint32(18).string('renewed').finish(), 12, 18, 1, 120]);
    expect(SubscriptionChanged.decode(ended).change).toBe('renewed');
    expect(peekStrings(ended, [2])).toEqual(['renewed']);
  });
});

describe('peekMessage', () => {
  it('reads an embedded message to peek into, as decode has it', () => {
    for (const method of ['payment_card', 'invoice', '']) {
      const bytes = InvoiceChanged.encode(
        InvoiceChanged.fromPartial({
          invoice: { uuid: 'i1', collection_method: method, lines: [{ description: 'x' }] },
        }),
      ).finish();
      expect(collectionMethodOf(bytes)).toBe(InvoiceChanged.decode(bytes).invoice!.collection_method);
    }
  });

  it('answers undefined when the message is absent, and the last occurrence when it repeats', () => {
    expect(collectionMethodOf(InvoiceChanged.encode({}).finish())).toBeUndefined();
    const card = new BinaryWriter().uint32(98).string('payment_card').finish();
    const invoice = new BinaryWriter().uint32(98).string('invoice').finish();
    // Generated decode replaces the first invoice with the second (no merge): so does peek.
    const both = new BinaryWriter().uint32(10).bytes(card).uint32(10).bytes(invoice).finish();
    expect(InvoiceChanged.decode(both).invoice!.collection_method).toBe('invoice');
    expect(collectionMethodOf(both)).toBe('invoice');
    const empty = new BinaryWriter().uint32(10).bytes(new Uint8Array()).finish();
    expect(InvoiceChanged.decode(empty).invoice!.collection_method).toBe('');
    expect(collectionMethodOf(empty)).toBe('');
  });
});

describe('peekRepeatedMessages', () => {
  it('reads every occurrence in order, as decode lists them', () => {
    // Invoice.lines = 19; InvoiceLine.subscription = 19.
    const invoice = InvoiceChanged.fromPartial({
      invoice: {
        uuid: 'i1',
        lines: [{ description: 'setup' }, { subscription: 's1' }, { subscription: '' }, { subscription: 's2' }],
      },
    });
    const encoded = InvoiceChanged.encode(invoice).finish();
    const lines = peekRepeatedMessages(peekMessage(encoded, 1)!, 19);
    expect(lines.map((line) => peekStrings(line, [19])[0])).toEqual([undefined, 's1', '', 's2']);
    expect(InvoiceChanged.decode(encoded).invoice!.lines.map((line) => line.subscription)).toEqual([
      undefined,
      's1',
      '',
      's2',
    ]);
    expect(peekRepeatedMessages(InvoiceChanged.encode({}).finish(), 1)).toEqual([]);
  });
});
