import { encodeMessage, eventsV1 } from '@billing/proto';

export type EventEnvelope = eventsV1.EventEnvelope;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeEnvelope(envelope: EventEnvelope): Uint8Array {
  return encodeMessage(eventsV1.EventEnvelope, envelope);
}

/** Thrown for bytes that are not a usable envelope: a poison message, never worth retrying. */
export class MalformedEnvelopeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MalformedEnvelopeError';
  }
}

/**
 * Decodes and checks the fields consumers rely on. Protobuf decodes many random byte strings
 * without complaint, so a missing event id or type is treated as malformed too.
 */
export function decodeEnvelope(data: Uint8Array): EventEnvelope {
  let envelope: EventEnvelope;
  try {
    envelope = eventsV1.EventEnvelope.decode(data);
  } catch (error) {
    throw new MalformedEnvelopeError(`Undecodable event envelope: ${(error as Error).message}`, { cause: error });
  }
  if (!UUID.test(envelope.event_id)) {
    throw new MalformedEnvelopeError(`Event envelope has no valid event_id ("${envelope.event_id}")`);
  }
  if (!envelope.event_type) throw new MalformedEnvelopeError(`Event ${envelope.event_id} has no event_type`);
  return envelope;
}
