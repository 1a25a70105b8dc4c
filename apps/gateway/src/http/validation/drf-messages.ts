import type { z } from 'zod';
import { quoted } from './text-checks.js';

/** DRF's wording for the formats its fields accept, quoted in "wrong format" messages. */
export const DATE_FORMAT_HINT = 'YYYY-MM-DD';
export const DATETIME_FORMAT_HINT = 'YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]';

export const DRF_MESSAGES = {
  required: 'This field is required.',
  null: 'This field may not be null.',
  blank: 'This field may not be blank.',
  invalidString: 'Not a valid string.',
  invalidInteger: 'A valid integer is required.',
  invalidNumber: 'A valid number is required.',
  invalidBoolean: 'Must be a valid boolean.',
  invalidEmail: 'Enter a valid email address.',
  invalidUuid: 'Must be a valid UUID.',
  invalidUrl: 'Enter a valid URL.',
  invalidDate: `Date has wrong format. Use one of these formats instead: ${DATE_FORMAT_HINT}.`,
  invalidDatetime: `Datetime has wrong format. Use one of these formats instead: ${DATETIME_FORMAT_HINT}.`,
  datetimeOutOfRange: 'Datetime value out of range.',
  emptyList: 'This list may not be empty.',
  invalid: 'Invalid value.',
  maxLength: (max: number | bigint) => `Ensure this field has no more than ${max} characters.`,
  minLength: (min: number | bigint) => `Ensure this field has at least ${min} characters.`,
  maxValue: (max: number | bigint) => `Ensure this value is less than or equal to ${max}.`,
  minValue: (min: number | bigint) => `Ensure this value is greater than or equal to ${min}.`,
  maxItems: (max: number | bigint) => `Ensure this field has no more than ${max} elements.`,
  minItems: (min: number | bigint) => `Ensure this field has at least ${min} elements.`,
  invalidChoice: (input: unknown) => `"${quoted(pythonStr(input))}" is not a valid choice.`,
  notADict: (input: unknown) => `Invalid data. Expected a dictionary, but got ${pythonTypeName(input)}.`,
  notAList: (input: unknown) => `Expected a list of items but got type "${pythonTypeName(input)}".`,
  maxDigits: (max: number) => `Ensure that there are no more than ${max} digits in total.`,
  maxDecimalPlaces: (max: number) => `Ensure that there are no more than ${max} decimal places.`,
  maxWholeDigits: (max: number) => `Ensure that there are no more than ${max} digits before the decimal point.`,
} as const;

type RawIssue = z.core.$ZodRawIssue;

/**
 * Translates a zod issue into DRF's message. Used as the error map of every parse the gateway
 * runs, so plain zod schemas speak DRF too; the field builders in fields.ts add the cases a
 * generic translation cannot know (blank strings, UUIDs, choices).
 */
export function drfMessage(issue: RawIssue): string {
  // Enums and literals report a missing or null value as a bad choice; DRF does not.
  if (issue.code === 'invalid_type' || issue.code === 'invalid_value') {
    if (issue.input === undefined) return DRF_MESSAGES.required;
    if (issue.input === null) return DRF_MESSAGES.null;
  }
  switch (issue.code) {
    case 'invalid_type':
      return invalidTypeMessage(issue.expected, issue.input);
    case 'too_small':
      return tooSmallMessage(issue.origin, issue.minimum, issue.input);
    case 'too_big':
      if (issue.origin === 'string') return DRF_MESSAGES.maxLength(issue.maximum);
      if (issue.origin === 'array' || issue.origin === 'set') return DRF_MESSAGES.maxItems(issue.maximum);
      return DRF_MESSAGES.maxValue(issue.maximum);
    case 'invalid_value':
      return DRF_MESSAGES.invalidChoice(issue.input);
    case 'invalid_format':
      return invalidFormatMessage(issue.format);
    case 'not_multiple_of':
      return `Ensure this value is a multiple of ${issue.divisor}.`;
    case 'custom':
      return typeof issue.message === 'string' && issue.message !== '' ? issue.message : DRF_MESSAGES.invalid;
    default:
      return DRF_MESSAGES.invalid;
  }
}

/** Zod's error-map signature around drfMessage, for `safeParse(x, { error: drfErrorMap })`. */
export const drfErrorMap: z.core.$ZodErrorMap = (issue) => drfMessage(issue);

function invalidTypeMessage(expected: string, input: unknown): string {
  switch (expected) {
    case 'string':
      return DRF_MESSAGES.invalidString;
    case 'int':
      return DRF_MESSAGES.invalidInteger;
    case 'number':
    case 'bigint':
      return DRF_MESSAGES.invalidNumber;
    case 'boolean':
      return DRF_MESSAGES.invalidBoolean;
    case 'object':
    case 'record':
      return DRF_MESSAGES.notADict(input);
    case 'array':
    case 'tuple':
    case 'set':
      return DRF_MESSAGES.notAList(input);
    case 'date':
      return DRF_MESSAGES.invalidDatetime;
    default:
      return DRF_MESSAGES.invalid;
  }
}

function tooSmallMessage(origin: string, minimum: number | bigint, input: unknown): string {
  if (origin === 'string') {
    // DRF checks blankness before length, so "" is "blank" whatever the minimum is.
    return input === '' || Number(minimum) === 1 ? DRF_MESSAGES.blank : DRF_MESSAGES.minLength(minimum);
  }
  if (origin === 'array' || origin === 'set') {
    return Number(minimum) === 1 ? DRF_MESSAGES.emptyList : DRF_MESSAGES.minItems(minimum);
  }
  return DRF_MESSAGES.minValue(minimum);
}

function invalidFormatMessage(format: string): string {
  switch (format) {
    case 'email':
      return DRF_MESSAGES.invalidEmail;
    case 'uuid':
    case 'guid':
      return DRF_MESSAGES.invalidUuid;
    case 'date':
      return DRF_MESSAGES.invalidDate;
    case 'datetime':
      return DRF_MESSAGES.invalidDatetime;
    case 'url':
      return DRF_MESSAGES.invalidUrl;
    default:
      return DRF_MESSAGES.invalid;
  }
}

/** Python's name for the JSON value's type, as DRF prints it ("str", "list", "dict", ...). */
export function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'object':
      return 'dict';
    default:
      return typeof value;
  }
}

/** Python's str() of a JSON value, for messages that quote the input. */
function pythonStr(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
