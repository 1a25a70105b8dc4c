export interface WaitForOptions {
  /** Give up after this long; a waitFor that never ends would hang the suite instead of failing it. */
  timeoutMs?: number;
  intervalMs?: number;
  /** Names what was awaited in the timeout error. */
  description?: string;
}

/**
 * Polls until `predicate` returns a truthy value and resolves with it. For asynchronous delivery
 * (a relay publishing, a consumer committing), never for dates: time-dependent code uses TestClock.
 * A predicate that throws counts as "not yet"; its last error is reported on timeout.
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  { timeoutMs = 5_000, intervalMs = 25, description = 'condition' }: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}${reason}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
