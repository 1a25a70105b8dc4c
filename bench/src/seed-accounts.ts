/** Account codes the benchmark creates and reads: fixed-width so every path has the same length. */
export function accountCodes(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `bench-${String(index + 1).padStart(6, '0')}`);
}

export function accountPath(code: string): string {
  return `/api/v1/accounts/${encodeURIComponent(code)}/`;
}

/** Headers every platform request carries (the baseline gets the same bytes and ignores them). */
export function apiHeaders(token: string): Record<string, string> {
  return { Authorization: `Token ${token}`, 'X-Client-System': 'bench' };
}

/**
 * A JSON call to the platform's REST API (`/api/v1` + path) with the benchmark's token: the parsed
 * body, or an error naming the status and body when it is not a 2xx.
 */
export function apiCaller(gatewayUrl: string, token: string) {
  const base = `${gatewayUrl}/api/v1`;
  const headers = { ...apiHeaders(token), 'Content-Type': 'application/json' };
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
}

// Parallel enough to seed 1000 accounts in seconds, low enough not to trip pool timeouts.
const SEED_CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Creates the accounts through the public REST API (POST /api/v1/accounts/), so the rows are
 * exactly what the platform writes itself, with nothing inserted behind its back. Returns each
 * code's account uuid.
 */
export async function seedAccountsViaApi(
  gatewayUrl: string,
  token: string,
  codes: string[],
): Promise<Map<string, string>> {
  const uuids = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < codes.length) {
      const code = codes[next++]!;
      const response = await fetch(new URL('/api/v1/accounts/', gatewayUrl), {
        method: 'POST',
        headers: { ...apiHeaders(token), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          code,
          company_name: `Bench ${code} ApS`,
          legal_address: 'Benchmarkvej 1',
          legal_zipcode: '2100',
          legal_city: 'København Ø',
          legal_country: 'DK',
        }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (response.status !== 201) {
        throw new Error(`seeding ${code}: POST /api/v1/accounts/ answered ${response.status} ${await response.text()}`);
      }
      uuids.set(code, ((await response.json()) as { uuid: string }).uuid);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEED_CONCURRENCY, codes.length) }, worker));
  return uuids;
}
