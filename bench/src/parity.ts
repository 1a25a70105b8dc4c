export interface Target {
  label: string;
  origin: string;
}

const MAX_REPORTED_DIFFERENCES = 8;

/**
 * One GET against each side before any load: both must answer 200, and the baseline's body should
 * equal the platform's (same keys, same values, key order aside). Any difference is returned as a
 * note for the report: a baseline that returns less than the platform would flatter the ratio.
 */
export async function checkParity(
  path: string,
  headers: Record<string, string>,
  baseline: Target,
  platform?: Target,
): Promise<string[]> {
  const baselineBody = await getJson(baseline, path, headers);
  if (!platform) return [];
  const platformBody = await getJson(platform, path, headers);
  const differences: string[] = [];
  compare(platformBody, baselineBody, '$', differences);
  if (differences.length === 0) return [];
  return [
    `baseline body differs from the platform's at ${differences.slice(0, MAX_REPORTED_DIFFERENCES).join('; ')}` +
      (differences.length > MAX_REPORTED_DIFFERENCES
        ? ` (+${differences.length - MAX_REPORTED_DIFFERENCES} more)`
        : ''),
  ];
}

function compare(platform: unknown, baseline: unknown, path: string, out: string[]): void {
  if (isObject(platform) && isObject(baseline)) {
    for (const key of new Set([...Object.keys(platform), ...Object.keys(baseline)])) {
      if (!(key in baseline)) out.push(`${path}.${key} (missing in baseline)`);
      else if (!(key in platform)) out.push(`${path}.${key} (only in baseline)`);
      else compare(platform[key], baseline[key], `${path}.${key}`, out);
    }
  } else if (Array.isArray(platform) && Array.isArray(baseline)) {
    if (platform.length !== baseline.length) out.push(`${path} (length ${platform.length} vs ${baseline.length})`);
    else
      platform.forEach((item, index) => {
        compare(item, baseline[index], `${path}[${index}]`, out);
      });
  } else if (JSON.stringify(platform) !== JSON.stringify(baseline)) {
    out.push(`${path} (${JSON.stringify(platform)} vs ${JSON.stringify(baseline)})`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function getJson(
  target: Target,
  path: string,
  headers: Record<string, string>,
): Promise<Record<string, unknown>> {
  const response = await fetch(new URL(path, target.origin), { headers, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${target.label}: GET ${path} answered ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}
