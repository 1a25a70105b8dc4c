import type { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment with a zod schema and fails fast with one readable line per problem,
 * naming the variable, so a misconfigured pod dies at start with a useful log.
 */
export function loadConfig<Schema extends z.ZodType>(
  appName: string,
  schema: Schema,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<Schema> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(root)';
    // zod says "expected string, received undefined"; an operator needs to hear it is unset.
    const unset = issue.path.length === 1 && env[String(issue.path[0])] === undefined;
    return `  ${name}: ${unset ? 'required, but not set' : issue.message}`;
  });
  throw new ConfigError(`${appName}: invalid configuration\n${lines.join('\n')}`);
}

/**
 * For process entry points: a ConfigError is the operator's input, not a bug, so it is printed
 * as its message alone (no stack trace) and the process exits with status 1.
 */
export function exitOnConfigError<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
