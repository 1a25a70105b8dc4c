import type { FieldViolation } from '@billing/errors';

export type ImportRow = Readonly<Record<string, string>>;

/** One row read as a record, or what is wrong with it (each violation naming its column). */
export interface ParsedRow<Record> {
  record: Record | null;
  violations: FieldViolation[];
}

/**
 * Every row of an imported file as records, or every violation, each named `line N: column` (the
 * header is line 1). Two rows with the same key are refused (`repeats` says why), since one would
 * silently replace the other.
 */
export function recordsFromRows<Record>(
  rows: readonly ImportRow[],
  parse: (row: ImportRow) => ParsedRow<Record>,
  keyOf: (record: Record) => string,
  repeats: (firstLine: number) => string,
): { records: Record[]; violations: FieldViolation[] } {
  const records: Record[] = [];
  const violations: FieldViolation[] = [];
  const seen = new Map<string, number>();
  rows.forEach((row, index) => {
    const line = index + 2;
    const parsed = parse(row);
    for (const violation of parsed.violations)
      violations.push({ ...violation, field: `line ${line}: ${violation.field}` });
    if (!parsed.record) return;
    const key = keyOf(parsed.record);
    const first = seen.get(key);
    if (first !== undefined) {
      violations.push({ field: `line ${line}`, description: repeats(first) });
      return;
    }
    seen.set(key, line);
    records.push(parsed.record);
  });
  return { records, violations };
}
