/** A mistake on the command line: reported with the usage text, not a stack trace. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/**
 * Runs a benchmark's option parser: any mistake it reports (parseArgs' own TypeErrors for unknown
 * flags and missing values, or a bad value) becomes a UsageError carrying the usage text.
 */
export function parseCommandLine<T>(usage: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
}

/** The flags every benchmark takes, beside its own (parseArgs' option descriptions). */
export const COMMON_FLAGS = {
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

/** --help: the usage text, and the run ends there. */
export function exitOnHelp(help: boolean | undefined, usage: string): void {
  if (!help) return;
  console.log(usage);
  process.exit(0);
}

/** The benchmark's options, or exit 2 with the mistake and the usage text. */
export function optionsOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${error.usage}`);
    process.exit(2);
  }
}

/** Upper bounds keep a typo from turning into an hour-long run or a connection storm. */
export function boundedInteger(flag: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${flag} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** Postgres of the in-process benchmarks: the flag, then the environment, then the local trust user. */
export function benchDatabaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv, fallback: string): string {
  return flag ?? env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL ?? env.DATABASE_URL ?? fallback;
}

/**
 * `--only <side>` of a benchmark comparing the service's side with a baseline: both sides unless
 * one is named; `--cpu-prof` profiles the service's side, so it cannot go with the baseline alone.
 */
export function chosenSides<S extends string>(
  serviceSide: S,
  only: string | undefined,
  cpuProfDir: string | undefined,
): 'both' | S | 'baseline' {
  if (only !== undefined && only !== serviceSide && only !== 'baseline') {
    throw new Error(`--only must be ${serviceSide} or baseline, got "${only}"`);
  }
  if (cpuProfDir !== undefined && only === 'baseline') {
    throw new Error(`--cpu-prof profiles the ${serviceSide} phases: not with --only baseline`);
  }
  return (only as S | 'baseline' | undefined) ?? 'both';
}

/**
 * What every benchmark's entry point does around its run: a log with its tag, cleanups run newest
 * first (also from Ctrl-C or a kill, before leaving with the signal's status) and the exit code a
 * failed cleanup turns to 1.
 */
export function benchRun(tag: string, onSignal: string) {
  const cleanups: (() => Promise<unknown>)[] = [];
  const state = { exitCode: 0 };
  const log = (message: string) => console.error(`[${tag}] ${message}`);
  const runCleanups = async () => {
    for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) {
      await cleanup().catch((error: unknown) => {
        console.error(`[${tag}] cleanup failed:`, error);
        state.exitCode = 1;
      });
    }
  };
  for (const [signal, status] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      log(`${signal}: ${onSignal}`);
      void runCleanups().finally(() => process.exit(status));
    });
  }
  return { log, cleanups, runCleanups, state };
}
