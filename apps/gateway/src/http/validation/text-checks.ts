/**
 * Text the platform cannot store as sent. PostgreSQL refuses the NUL character in text and jsonb
 * (every such write was a 500), and a lone UTF-16 surrogate (`"\ud800"` is valid JSON) has no UTF-8
 * form: protobuf would silently store U+FFFD instead. Both are refused where text enters: body
 * fields, custom_fields keys and values, text filters and path parameters.
 */

/** DRF's ProhibitNullCharactersValidator (and Django forms') wording. */
export const NULL_CHARACTERS_MESSAGE = 'Null characters are not allowed.';
/** Ours: DRF has none (json.loads accepts it and the database write then fails). */
export const LONE_SURROGATE_MESSAGE = 'Unpaired surrogate characters are not allowed.';

export function hasNullCharacter(text: string): boolean {
  return text.includes('\u0000');
}

// With the u flag a surrogate pair is one code point above U+FFFF, so only unpaired halves match.
const LONE_SURROGATE = /\p{Cs}/u;

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** The first reason `text` cannot be stored, or undefined. */
export function unstorableTextMessage(text: string): string | undefined {
  if (hasNullCharacter(text)) return NULL_CHARACTERS_MESSAGE;
  if (hasLoneSurrogate(text)) return LONE_SURROGATE_MESSAGE;
  return undefined;
}

/** Longest quoted input a message repeats: a refusal never echoes megabytes back. */
export const MAX_QUOTED_INPUT = 100;

/** `text` cut to MAX_QUOTED_INPUT characters with "…" when longer (never inside a surrogate pair). */
export function quoted(text: string): string {
  if (text.length <= MAX_QUOTED_INPUT) return text;
  let end = MAX_QUOTED_INPUT;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
