const formatters = new Map<string, Intl.DateTimeFormat>();

/** The local calendar day (YYYY-MM-DD) of an instant in an IANA time zone. */
export function localDay(instant: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}
