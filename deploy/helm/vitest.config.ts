import { defineConfig } from 'vitest/config';

// The first test builds the Go renderer (a few seconds on a cold Go build cache).
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
});
