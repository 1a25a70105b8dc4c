/** A scrape must not hang on a dependency that hangs: what does not answer in time is left out. */
export const COLLECT_TIMEOUT_MS = 1_000;

/** The value of `work`, or undefined when it fails or outlasts `timeoutMs`; `onError` hears why. */
export async function collectWithin<T>(
  work: () => Promise<T>,
  onError: (error: unknown) => void,
  timeoutMs = COLLECT_TIMEOUT_MS,
): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      onError(new Error(`no answer within ${timeoutMs} ms`));
      resolve(undefined);
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      work().catch((error: unknown) => {
        onError(error);
        return undefined;
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
