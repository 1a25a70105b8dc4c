const MAX_HEADER_VALUE_LENGTH = 256;

/**
 * A free-text header (X-Client-System, X-User) as the client meant it: Node reads header bytes as
 * Latin-1. Most clients send UTF-8 (curl, requests), so bytes that form valid UTF-8 are decoded as
 * such; others (fetch/undici sends Latin-1) are kept as Latin-1, which HTTP defines as the default.
 * Trimmed and capped so a huge or blank value never reaches logs or downstream metadata; blank
 * means absent.
 */
export function textHeader(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = decodeHeaderBytes(raw).trim().slice(0, MAX_HEADER_VALUE_LENGTH);
  return text === '' ? undefined : text;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

// Only bytes of 0x80 and above can start a UTF-8 sequence; plain ASCII needs no decoding.
const NON_ASCII = /[\u0080-\uffff]/;

function decodeHeaderBytes(latin1: string): string {
  if (!NON_ASCII.test(latin1)) return latin1;
  try {
    return strictUtf8.decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return latin1;
  }
}
