const MAX_HEADER_VALUE_LENGTH = 256;

/**
 * A free-text header (X-Client-System, X-User) as the client meant it: Node reads header bytes as
 * Latin-1, clients send UTF-8, so the bytes are decoded again. Trimmed and capped so a huge or
 * blank value never reaches logs or downstream metadata; blank means absent.
 */
export function textHeader(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = Buffer.from(raw, 'latin1').toString('utf8').trim().slice(0, MAX_HEADER_VALUE_LENGTH);
  return text === '' ? undefined : text;
}
