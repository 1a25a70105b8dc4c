/** One dependency a process needs to do its work, e.g. Postgres or NATS. */
export interface ReadinessCheck {
  /** Named in /readyz's answer: 'postgres', 'nats'. */
  name: string;
  /** Resolves when the dependency answers; rejects (or outlasts the timeout) when it does not. */
  check(): Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  /** 'ok', or why the check failed, by check name. */
  checks: Record<string, string>;
}

export const READINESS_TIMEOUT_MS = 2_000;

/**
 * Runs every check side by side, each bounded by `timeoutMs`: a dependency that hangs (a
 * partitioned database) makes the process not ready rather than the probe time out.
 */
export async function checkReadiness(
  checks: readonly ReadinessCheck[],
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<ReadinessReport> {
  const outcomes = await Promise.all(
    checks.map(async ({ name, check }) => [name, await outcomeOf(check, timeoutMs)] as const),
  );
  return { ready: outcomes.every(([, outcome]) => outcome === 'ok'), checks: Object.fromEntries(outcomes) };
}

async function outcomeOf(check: () => Promise<void>, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      check().then(
        () => 'ok',
        (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'failed',
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A check that fails with `reason`: the process is not ready yet (starting) or any more (stopping). */
export function notReady(name: string, reason: string): ReadinessCheck {
  return {
    name,
    check: async () => {
      throw new Error(reason);
    },
  };
}
