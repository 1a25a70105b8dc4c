import { textLength } from '@billing/domain-kit';
import { unstorableTextMessage } from './text-checks.js';

/**
 * How deep a field's value may nest (objects and arrays), counting the value itself: a
 * `custom_fields` object is level 1. Protobuf decoders stop at 100 nested messages (protoc's and
 * ts-proto's limit) and one JSON object level inside a google.protobuf.Struct costs three (Struct,
 * its fields entry, Value); 32 levels plus the messages that carry custom_fields (a reply, an
 * account, its subscription) stay within 100. Deeper input is refused before validation, by
 * iterative walks, so nothing downstream (zod, error messages, protobuf) ever recurses on it.
 */
export const MAX_JSON_DEPTH = 32;
/** custom_fields as JSON text, in UTF-8 bytes. */
export const MAX_CUSTOM_FIELDS_BYTES = 64 * 1024;
/** A custom_fields key, in characters (as long as the longest names elsewhere, e.g. company_name). */
export const MAX_CUSTOM_FIELDS_KEY_LENGTH = 256;

export const JSON_LIMIT_MESSAGES = {
  tooDeep: `Ensure this value has no more than ${MAX_JSON_DEPTH} levels of nesting.`,
  tooLarge: `Ensure this value has no more than ${MAX_CUSTOM_FIELDS_BYTES} bytes as JSON.`,
  keyTooLong: `Ensure every key has no more than ${MAX_CUSTOM_FIELDS_KEY_LENGTH} characters.`,
  reservedKey: '"__proto__" is not allowed as a key.',
  inexactNumber:
    'Ensure every number is finite and every whole number is between -9007199254740991 and 9007199254740991.',
} as const;

const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object';

/**
 * Whether `value` nests deeper than `maxDepth` levels (a scalar is level 0, `{}` and `[]` level 1).
 * Iterative: a value nested a million levels deep costs a loop, not a stack overflow.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  if (!isContainer(value)) return false;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > maxDepth) return true;
    for (const child of Object.values(node)) {
      if (isContainer(child)) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * The path of each field of a request body whose value nests deeper than MAX_JSON_DEPTH: `[name]`
 * for an object body, `[index, name]` for a list of objects, `[index]` for other list items. The
 * body itself is the frame, not a level: a field value may nest MAX_JSON_DEPTH levels.
 */
export function tooDeepFields(body: unknown): PropertyKey[][] {
  const paths: PropertyKey[][] = [];
  const check = (value: unknown, path: PropertyKey[]) => {
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) paths.push(path);
  };
  const checkFields = (object: object, prefix: PropertyKey[]) => {
    for (const [name, value] of Object.entries(object)) check(value, [...prefix, name]);
  };
  if (Array.isArray(body)) {
    body.forEach((item, index) => {
      if (isContainer(item) && !Array.isArray(item)) checkFields(item, [index]);
      else check(item, [index]);
    });
  } else if (isContainer(body)) {
    checkFields(body, []);
  }
  return paths;
}

/**
 * What makes a free-form JSON object (custom_fields) unstorable, in one iterative walk: nesting
 * beyond MAX_JSON_DEPTH, a NUL or lone surrogate in a key or string (PostgreSQL and UTF-8 cannot
 * hold them), a key over MAX_CUSTOM_FIELDS_KEY_LENGTH or named `__proto__` (JavaScript objects on
 * the way would drop it silently), a number JSON cannot carry exactly (1e400 parses as Infinity,
 * 2**53+1 as 2**53), then a size over MAX_CUSTOM_FIELDS_BYTES. Undefined when storable.
 */
export function jsonObjectProblem(value: object): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      const problem = unstorableTextMessage(node);
      if (problem) return problem;
    } else if (typeof node === 'number') {
      if (!Number.isFinite(node) || (Number.isInteger(node) && !Number.isSafeInteger(node))) {
        return JSON_LIMIT_MESSAGES.inexactNumber;
      }
    } else if (isContainer(node)) {
      if (depth > MAX_JSON_DEPTH) return JSON_LIMIT_MESSAGES.tooDeep;
      for (const [key, child] of Object.entries(node)) {
        if (!Array.isArray(node)) {
          const problem = keyProblem(key);
          if (problem) return problem;
        }
        stack.push([child, depth + 1]);
      }
    }
  }
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > MAX_CUSTOM_FIELDS_BYTES) return JSON_LIMIT_MESSAGES.tooLarge;
  return undefined;
}

function keyProblem(key: string): string | undefined {
  const problem = unstorableTextMessage(key);
  if (problem) return problem;
  if (key === '__proto__') return JSON_LIMIT_MESSAGES.reservedKey;
  if (key.length > MAX_CUSTOM_FIELDS_KEY_LENGTH && textLength(key) > MAX_CUSTOM_FIELDS_KEY_LENGTH) {
    return JSON_LIMIT_MESSAGES.keyTooLong;
  }
  return undefined;
}
