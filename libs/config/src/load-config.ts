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
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new ConfigError(`${appName}: invalid configuration\n${lines.join('\n')}`);
}
