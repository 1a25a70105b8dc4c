import type { z } from 'zod';
import { validationFailed } from '../errors/http-error.js';
import { type FieldError, NON_FIELD_ERRORS, renderDrfErrors } from './drf-error-body.js';
import { drfErrorMap } from './drf-messages.js';
import { JSON_LIMIT_MESSAGES, tooDeepFields } from './json-limits.js';

/**
 * Parses `input` with `schema`; on failure throws a 400 whose body is DRF's error shape.
 * Every gateway parse goes through here so the wording and shape are the same everywhere.
 */
export function parseOrThrow<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input, { error: drfErrorMap });
  if (result.success) return result.data;
  throw validationFailed(renderDrfErrors(toFieldErrors(result.error.issues, input), input));
}

/**
 * The option of a `superRefine` checking combinations of fields: it runs only once every field is
 * valid, as DRF calls validate() last (so a bad field is never also reported as a bad combination).
 */
export const AFTER_FIELD_CHECKS = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

/**
 * A JSON `null` body is "no data" to DRF, not a null field. A field nested deeper than
 * MAX_JSON_DEPTH is refused before the schema sees the body, so no check or message on the way
 * recurses into it (a choice field given an array nested thousands deep overflowed the stack).
 */
export function parseBodyOrThrow<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  if (body === null) throw validationFailed({ [NON_FIELD_ERRORS]: ['No data provided'] });
  const tooDeep = tooDeepFields(body);
  if (tooDeep.length > 0) {
    const errors = tooDeep.map((path) => ({ path, message: JSON_LIMIT_MESSAGES.tooDeep }));
    throw validationFailed(renderDrfErrors(errors, body));
  }
  return parseOrThrow(schema, body);
}

export function toFieldErrors(issues: readonly z.core.$ZodIssue[], input: unknown): FieldError[] {
  return issues.map((issue) => ({
    path: issue.path,
    message: issue.message,
    objectExpected:
      issue.code === 'invalid_type' &&
      (issue.expected === 'object' || issue.expected === 'record') &&
      valueAtPath(input, issue.path) != null,
  }));
}

function valueAtPath(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
