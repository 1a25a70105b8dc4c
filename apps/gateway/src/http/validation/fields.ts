import { canonicalUuid } from '@billing/domain-kit';
import { z } from 'zod';
import { COUNTRY_CODES, CURRENCY_CODES } from './choice-sets.js';
import { DRF_MESSAGES } from './drf-messages.js';
import { isInstantInRange, parseIsoDate, parseIsoDateTime } from './iso-date-time.js';
import { jsonObjectProblem } from './json-limits.js';
import { unstorableTextMessage } from './text-checks.js';

/**
 * Zod builders for request fields that accept what DRF's fields accept and fail with DRF's
 * messages. Wrap them as usual: `.optional()` for fields that may be left out, `.nullable()` for
 * fields that take null. Missing and null values are reported by the gateway's error map
 * ("This field is required." / "This field may not be null."), so these builders only add what a
 * generic translation cannot know.
 */

type ErrorFn = (issue: z.core.$ZodRawIssue) => string | undefined;

/**
 * A fixed message for issues of the given codes. Missing and null values, and other codes (a
 * schema's error also covers its checks, e.g. min/max), fall through to the shared map.
 */
const messageFor =
  (codes: readonly string[], message: string): ErrorFn =>
  (issue) =>
    issue.input == null || !codes.includes(issue.code) ? undefined : message;

/**
 * The length of a text field the contract leaves unbounded (legal_address, descriptions,
 * invoice_supplement, ...). Every object travels whole in events, and the event bus takes messages
 * of at most 1 MiB: an account with a 900,000-character address could not be published, and its
 * service's outbox stopped there for good. 5,000 characters is Stripe's limit for such text.
 */
export const MAX_TEXT_LENGTH = 5000;

export interface StringFieldOptions {
  /** Maximum length in characters ("Ensure this field has no more than N characters."); default MAX_TEXT_LENGTH. */
  max?: number;
  /** Minimum length for non-blank values. */
  min?: number;
  /** Whether "" (or only whitespace) is accepted. DRF's default, and ours, is no. */
  allowBlank?: boolean;
  /** Strip surrounding whitespace first, as DRF's CharField does by default. */
  trim?: boolean;
}

/** DRF CharField: numbers are taken as their text, whitespace is trimmed, "" is blank. */
function string(options: StringFieldOptions = {}) {
  const { max = MAX_TEXT_LENGTH, min, allowBlank = false, trim = true } = options;
  let schema = z.string();
  if (!allowBlank) schema = schema.min(Math.max(1, min ?? 1));
  if (allowBlank && min !== undefined && min > 0) {
    schema = schema.refine((value) => value === '' || value.length >= min, {
      error: DRF_MESSAGES.minLength(min),
    });
  }
  schema = schema.max(max);
  // DRF's CharField also runs ProhibitNullCharactersValidator; lone surrogates are refused alike.
  const storable = schema.superRefine(refuseUnstorableText);
  return z.preprocess((value) => asCharFieldInput(value, trim), storable);
}

function refuseUnstorableText(value: string, context: z.RefinementCtx): void {
  const message = unstorableTextMessage(value);
  if (message) context.addIssue({ code: 'custom', message });
}

/** A string field that also takes null (`company_name`, `erp_id`, ...). */
function nullableString(options: StringFieldOptions = {}) {
  return string(options).nullable();
}

/**
 * An optional field the contract types as a plain string (not "string or null") and that may be
 * blank: null is taken as "" (gaps.md §3: the hosted product's Python client sends
 * `"legal_vat_number": null` for "none"), so the stored and returned value is always a string.
 * Wraps a blank-allowing string or a choice that has "" among its values.
 */
function nullAsBlank<Schema extends z.ZodType<string>>(schema: Schema) {
  return schema.nullable().transform((value): z.output<Schema> | '' => value ?? '');
}

/** `string({ ...options, allowBlank: true })` taking null as "" (see nullAsBlank). */
function blankableString(options: Omit<StringFieldOptions, 'allowBlank'> = {}) {
  return nullAsBlank(string({ ...options, allowBlank: true }));
}

function asCharFieldInput(value: unknown, trim: boolean): unknown {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && trim) return value.trim();
  return value;
}

/** DRF ChoiceField: `"XX" is not a valid choice.`; numbers match by their text. */
function choice<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.enum(values));
}

export interface IntegerFieldOptions {
  min?: number;
  max?: number;
}

const INTEGER_TEXT = /^[+-]?\d+(?:\.0*)?$/;

/** DRF IntegerField: accepts 12, 12.0, "12" and "12.0"; anything else is not a valid integer. */
function integer(options: IntegerFieldOptions = {}) {
  let schema = z.int({ error: messageFor(['invalid_type'], DRF_MESSAGES.invalidInteger) });
  if (options.min !== undefined) schema = schema.min(options.min);
  if (options.max !== undefined) schema = schema.max(options.max);
  return z.preprocess((value) => {
    if (typeof value === 'string' && INTEGER_TEXT.test(value.trim())) return Number(value.trim());
    return value;
  }, schema);
}

/** The signed 32-bit range many contract fields use (payment terms, quantities). */
function int32(options: IntegerFieldOptions = {}) {
  return integer({ min: options.min ?? -2_147_483_648, max: options.max ?? 2_147_483_647 });
}

// DRF BooleanField's accepted spellings.
const TRUE_VALUES = new Set<unknown>([...'t T y Y yes Yes YES true True TRUE on On ON 1'.split(' '), 1, true]);
const FALSE_VALUES = new Set<unknown>([...'f F n N no No NO false False FALSE off Off OFF 0'.split(' '), 0, false]);

/** DRF BooleanField: true/false plus the usual spellings ("yes", "1", "off", ...). */
function boolean() {
  return z.preprocess((value) => {
    if (TRUE_VALUES.has(value)) return true;
    if (FALSE_VALUES.has(value)) return false;
    return value;
  }, z.boolean());
}

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * DRF UUIDField: any 32 hex digits (dashes, braces and a "urn:uuid:" prefix allowed), handed on
 * in the canonical lower-case dashed form. No RFC version check: DRF has none either.
 */
function uuid() {
  return z.preprocess(
    canonicalUuidOrSame,
    z
      .string({ error: messageFor(['invalid_type', 'invalid_format'], DRF_MESSAGES.invalidUuid) })
      .regex(CANONICAL_UUID)
      .meta({ format: 'uuid' }),
  );
}

function canonicalUuidOrSame(value: unknown): unknown {
  return typeof value === 'string' ? (canonicalUuid(value.trim()) ?? value) : value;
}

/** DRF EmailField: trimmed, "" is blank, otherwise "Enter a valid email address.". */
function email(options: { max?: number } = {}) {
  const error: ErrorFn = (issue) => {
    if (issue.input == null) return undefined;
    if (issue.input === '') return DRF_MESSAGES.blank;
    if (issue.code === 'too_big') return undefined;
    return DRF_MESSAGES.invalidEmail;
  };
  return z.preprocess((value) => asCharFieldInput(value, true), z.email({ error }).max(options.max ?? 254));
}

/** DRF DateField with the ISO format: YYYY-MM-DD, an existing calendar day. */
function date() {
  return z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() : value),
    z
      .string({ error: messageFor(['invalid_type'], DRF_MESSAGES.invalidDate) })
      .refine((value) => parseIsoDate(value) !== null, { error: DRF_MESSAGES.invalidDate })
      .meta({ format: 'date' }),
  );
}

/**
 * DRF DateTimeField with the ISO format; yields a Date. Text without an offset is UTC, the
 * server's time zone, as in DRF with Django's default TIME_ZONE.
 */
function datetime() {
  return z
    .preprocess(
      (value) => (typeof value === 'string' ? value.trim() : value),
      z
        .string({ error: messageFor(['invalid_type'], DRF_MESSAGES.invalidDatetime) })
        .superRefine((value, context) => {
          const instant = parseIsoDateTime(value);
          if (instant === null) context.addIssue({ code: 'custom', message: DRF_MESSAGES.invalidDatetime });
          else if (!isInstantInRange(instant))
            context.addIssue({ code: 'custom', message: DRF_MESSAGES.datetimeOutOfRange });
        })
        .meta({ format: 'date-time' }),
    )
    .transform((value) => parseIsoDateTime(value) as Date);
}

export interface DecimalFieldOptions {
  maxDigits: number;
  decimalPlaces: number;
  min?: number;
  max?: number;
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * DRF DecimalField (coerced to string): amounts stay text end to end so no float ever rounds
 * them, and come out with exactly `decimalPlaces` places ("10" -> "10.00"). Exponent notation
 * ("1e-7") is refused; JSON numbers are taken by their shortest text, so send amounts as strings.
 */
function decimal(options: DecimalFieldOptions) {
  const { decimalPlaces } = options;
  const schema = z
    .string({ error: messageFor(['invalid_type'], DRF_MESSAGES.invalidNumber) })
    .superRefine((value, context) => {
      const message = decimalProblem(value, options);
      if (message) context.addIssue({ code: 'custom', message });
    });
  return z
    .preprocess(
      (value) => {
        if (typeof value === 'number' && Number.isFinite(value)) return String(value);
        return typeof value === 'string' ? value.trim() : value;
      },
      schema.meta({ format: 'decimal', description: `Decimal number as a string, ${decimalPlaces} places` }),
    )
    .transform((value) => {
      const { sign, whole, fraction } = splitDecimal(value) as DecimalParts;
      const integerPart = whole.replace(/^0+(?=\d)/, '') || '0';
      const places = fraction.padEnd(decimalPlaces, '0');
      const isZero = /^0*$/.test(integerPart + places);
      return `${sign === '-' && !isZero ? '-' : ''}${integerPart}${decimalPlaces > 0 ? `.${places}` : ''}`;
    });
}

/** What DRF's DecimalField would say about `value`, in its order of checks; undefined if fine. */
function decimalProblem(value: string, options: DecimalFieldOptions): string | undefined {
  const { maxDigits, decimalPlaces, min, max } = options;
  const parts = splitDecimal(value);
  if (!parts) return DRF_MESSAGES.invalidNumber;
  const wholeDigits = parts.whole.replace(/^0+/, '').length;
  if (wholeDigits + parts.fraction.length > maxDigits) return DRF_MESSAGES.maxDigits(maxDigits);
  if (parts.fraction.length > decimalPlaces) return DRF_MESSAGES.maxDecimalPlaces(decimalPlaces);
  if (wholeDigits > maxDigits - decimalPlaces) return DRF_MESSAGES.maxWholeDigits(maxDigits - decimalPlaces);
  if (min !== undefined && Number(value) < min) return DRF_MESSAGES.minValue(min);
  if (max !== undefined && Number(value) > max) return DRF_MESSAGES.maxValue(max);
  return undefined;
}

interface DecimalParts {
  sign: string;
  whole: string;
  fraction: string;
}

function splitDecimal(value: string): DecimalParts | null {
  const match = DECIMAL_TEXT.exec(value);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  return { sign, whole, fraction };
}

/** A list of `item`; with `allowEmpty: false`, [] is DRF's "This list may not be empty.". */
function list<Item extends z.ZodType>(item: Item, options: { allowEmpty?: boolean; max?: number } = {}) {
  let schema = z.array(item);
  if (options.allowEmpty === false) schema = schema.min(1);
  if (options.max !== undefined) schema = schema.max(options.max);
  return schema;
}

/**
 * A free-form JSON object (`custom_fields`), refused whole (naming the field) when it cannot be
 * stored as sent: see jsonObjectProblem for the limits (depth, size, keys, text, numbers).
 */
function jsonObject() {
  return z.preprocess(
    (value, context) => {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const message = jsonObjectProblem(value);
        if (message) context.addIssue({ code: 'custom', message, input: value });
      }
      return value;
    },
    z.record(z.string(), z.unknown()),
  );
}

/** A country code from the contract's allowed set. */
const country = () => choice(COUNTRY_CODES);

/** A currency code from the contract's allowed set. */
const currency = () => choice(CURRENCY_CODES);

export const field = {
  string,
  nullableString,
  blankableString,
  nullAsBlank,
  choice,
  integer,
  int32,
  boolean,
  uuid,
  email,
  date,
  datetime,
  decimal,
  list,
  jsonObject,
  country,
  currency,
};
