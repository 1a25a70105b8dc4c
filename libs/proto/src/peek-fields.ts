import { BinaryReader } from '@bufbuild/protobuf/wire';

const LENGTH_DELIMITED = 2;
const END_GROUP = 4;

/**
 * Reads the length-delimited fields `fieldNumbers` of an encoded message, each as `read` takes it
 * from the reader, and steps over every other field without decoding it. A consumer that decides
 * from one or two fields whether an event concerns it (a renewal gives no notice, an invoice not
 * collected by card is not charged) reads those instead of decoding the whole message: a
 * subscription.changed or invoice.issued payload is a kilobyte or more of strings and nested
 * messages, and most events of a billing run are decided that way.
 *
 * For a well-formed message it answers what the generated (ts-proto) `decode` holds: the last
 * occurrence of a field wins (a later embedded message replaces an earlier one rather than merging
 * into it), an occurrence of another wire type is skipped, and the message ends at a zero tag or an
 * end-group tag. A field that does not occur is undefined (a string field that decode would default
 * to ''). A malformed one may be read otherwise: decode reads on past a zero tag inside an embedded
 * message, as if the rest of it belonged to the outer one, where this takes the embedded message
 * whole; and a string running past its embedded message's end throws here. Producers encode with
 * the generated code, so their events are well formed; a decision from a malformed one is at
 * worst the one its handler's decode would not have made for that event.
 */
function peekFields<T>(
  bytes: Uint8Array,
  fieldNumbers: readonly number[],
  read: (reader: BinaryReader) => T,
): Array<T | undefined> {
  const reader = new BinaryReader(bytes);
  const found: Array<T | undefined> = fieldNumbers.map(() => undefined);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const index = fieldNumbers.indexOf(tag >>> 3);
    if (index >= 0 && (tag & 7) === LENGTH_DELIMITED) {
      found[index] = read(reader);
      continue;
    }
    if ((tag & 7) === END_GROUP || tag === 0) break;
    reader.skip(tag & 7);
  }
  return found;
}

/** The string fields `fieldNumbers` of an encoded message (see peekFields); undefined where one is absent. */
export function peekStrings(bytes: Uint8Array, fieldNumbers: readonly number[]): Array<string | undefined> {
  return peekFields(bytes, fieldNumbers, (reader) => reader.string());
}

/** The encoded embedded message in field `fieldNumber` (see peekFields), to peek into in turn; undefined when absent. */
export function peekMessage(bytes: Uint8Array, fieldNumber: number): Uint8Array | undefined {
  return peekFields(bytes, [fieldNumber], (reader) => reader.bytes())[0];
}

/**
 * Every occurrence of the repeated embedded message field `fieldNumber`, in order, as decode makes
 * its list (one element per occurrence), each encoded to peek into in turn.
 */
export function peekRepeatedMessages(bytes: Uint8Array, fieldNumber: number): Uint8Array[] {
  const occurrences: Uint8Array[] = [];
  peekFields(bytes, [fieldNumber], (reader) => {
    occurrences.push(reader.bytes());
  });
  return occurrences;
}
