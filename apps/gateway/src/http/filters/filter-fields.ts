import { z } from 'zod';
import { parseIsoDate, parseIsoDateTimeInRange } from '../validation/iso-date-time.js';
import { hasNullCharacter, NULL_CHARACTERS_MESSAGE, quoted } from '../validation/text-checks.js';

/**
 * Query filter builders. Filters answer like django-filter (Django form wording, not DRF
 * serializer wording): an unusable value is 400 `{"<filter>": ["Enter a valid date."]}`, and an
 * empty value (`?status=`) means "no filter". Every builder is optional.
 */
export const FILTER_MESSAGES = {
  invalidChoice: (value: string) => `Select a valid choice. ${quoted(value)} is not one of the available choices.`,
  nullCharacters: NULL_CHARACTERS_MESSAGE,
  invalidDate: 'Enter a valid date.',
  invalidDatetime: 'Enter a valid date/time.',
  invalidUuid: 'Enter a valid UUID.',
  invalidInteger: 'Enter a whole number.',
  invalidNumber: 'Enter a number.',
} as const;

type Parse<Value> = (text: string) => Value | undefined;

/** A filter read from text: `parse` returns undefined for text it cannot use. */
function textFilter<Value>(parse: Parse<Value>, message: (text: string) => string, meta: Record<string, unknown> = {}) {
  const parsed = z.string().transform((text, context): Value => {
    const value = parse(text);
    if (value === undefined) {
      context.addIssue({ code: 'custom', message: message(text) });
      return z.NEVER;
    }
    return value;
  });
  return z
    .preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), parsed.optional())
    .optional()
    .meta(meta);
}

/** Free text, trimmed. A NUL is refused as Django's CharField refuses it (PostgreSQL cannot compare it). */
const string = () =>
  textFilter(
    (text) => (hasNullCharacter(text) ? undefined : text.trim()),
    () => FILTER_MESSAGES.nullCharacters,
  );

/**
 * `true/false/True/False/1/0`, as django-filter's BooleanWidget reads them. A Map, not an object
 * literal: `constructor` or `toString` must not find an inherited member and pass as a value.
 */
const BOOLEAN_TEXTS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['True', true],
  ['1', true],
  ['false', false],
  ['False', false],
  ['0', false],
]);
const boolean = () =>
  textFilter<boolean>((text) => BOOLEAN_TEXTS.get(text), FILTER_MESSAGES.invalidChoice, { type: 'boolean' });

function choice<const Values extends readonly [string, ...string[]]>(values: Values) {
  const allowed = new Set<string>(values);
  return textFilter<Values[number]>(
    (text) => (allowed.has(text) ? (text as Values[number]) : undefined),
    FILTER_MESSAGES.invalidChoice,
    { enum: [...values] },
  );
}

const WHOLE_NUMBER = /^[+-]?\d+$/;
const integer = () =>
  textFilter(
    (text) => (WHOLE_NUMBER.test(text.trim()) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined),
    () => FILTER_MESSAGES.invalidInteger,
    { type: 'integer' },
  );

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;
/** A decimal kept as text (amounts compare exactly in the services): "100.50". */
const number = () =>
  textFilter(
    (text) => (DECIMAL.test(text.trim()) ? text.trim() : undefined),
    () => FILTER_MESSAGES.invalidNumber,
    { type: 'string', format: 'decimal' },
  );

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** A UUID in canonical lower-case dashed form. */
const uuid = () =>
  textFilter(
    (text) => {
      const trimmed = text.trim();
      if (!UUID.test(trimmed)) return undefined;
      const hex = trimmed.replaceAll('-', '').toLowerCase();
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
    () => FILTER_MESSAGES.invalidUuid,
    { format: 'uuid' },
  );

/** A calendar date, YYYY-MM-DD, handed on as that text. */
const date = () =>
  textFilter(
    (text) => parseIsoDate(text.trim()) ?? undefined,
    () => FILTER_MESSAGES.invalidDate,
    { format: 'date' },
  );

/** An instant, YYYY-MM-DDTHH:MM:SSZ (any ISO 8601 form; no offset means UTC), handed on as a Date. */
const datetime = () =>
  textFilter(
    (text) => parseIsoDateTimeInRange(text.trim()) ?? undefined,
    () => FILTER_MESSAGES.invalidDatetime,
    {
      format: 'date-time',
    },
  );

export const filterField = { string, boolean, choice, integer, number, uuid, date, datetime };
