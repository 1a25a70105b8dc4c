/** True for IANA zone names the runtime knows (e.g. Europe/Copenhagen). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}
