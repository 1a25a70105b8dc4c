import { defineConfig } from 'vitest/config';

// The image test runs `npm ci --omit=dev` into a fresh tree (about a minute, longer on a busy machine).
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 300_000 },
});
