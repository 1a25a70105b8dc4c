/**
 * The length of text as DRF (Python) and PostgreSQL count it: in code points, so an emoji is one
 * character where JavaScript's `length` counts two UTF-16 units. "Ensure this field has no more
 * than N characters." must agree with the gateway (zod counts code points) and the varchar(N) columns.
 */
export function textLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    length++;
  }
  return length;
}
