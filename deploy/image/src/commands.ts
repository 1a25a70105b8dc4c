/**
 * What the image runs: `docker run <image> <command> [args]`. The processes are the built entry
 * points of the apps (the same files `npm start`'s runner and the tests start), named by the
 * Helm chart's values keys; paths are relative to the checkout's (the image's) root.
 */
export const PROCESS_ENTRY_POINTS = {
  accounts: 'apps/accounts/dist/main.js',
  subscriptions: 'apps/subscriptions/dist/main.js',
  invoicing: 'apps/invoicing/dist/main.js',
  analytics: 'apps/analytics/dist/main.js',
  payments: 'apps/payments/dist/main.js',
  gateway: 'apps/gateway/dist/main.js',
} as const;

/** Operator command lines, each reading the rest of the arguments itself. */
export const TOOL_ENTRY_POINTS = {
  /** The accounts admin command line (create-org, create-token, ...). */
  admin: 'apps/accounts/dist/admin/cli.js',
  'analytics-admin': 'apps/analytics/dist/admin/cli.js',
  /** Every service's migrations, for the Helm chart's migration Job (migrate-all.ts). */
  migrate: 'deploy/image/dist/migrate-main.js',
} as const;

export type CommandName = keyof typeof PROCESS_ENTRY_POINTS | keyof typeof TOOL_ENTRY_POINTS;

export const ENTRY_POINTS: Record<CommandName, string> = { ...PROCESS_ENTRY_POINTS, ...TOOL_ENTRY_POINTS };

export function isCommand(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(ENTRY_POINTS, name);
}

export const USAGE = `usage: <command> [arguments]

Processes (configured by environment, see the README's Configuration):
  ${Object.keys(PROCESS_ENTRY_POINTS).join(', ')}

Tools:
  admin ...                 the accounts admin command line (admin --help)
  analytics-admin ...       the analytics admin command line
  migrate [service[=schema] ...]
                            apply the migrations of the services named (default: all five, each on
                            its own schema); DATABASE_URL, or <SERVICE>_DATABASE_URL for one service
`;
