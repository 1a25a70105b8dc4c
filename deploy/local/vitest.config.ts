import { defineConfig } from 'vitest/config';

// Whole platforms and child processes start here (embedded PostgreSQL included): generous timeouts.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
});
