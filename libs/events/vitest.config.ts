import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { tsconfigPaths: true },
  // Redelivery tests wait for JetStream's ack wait and fetch cycles (up to 10 s under load).
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 30_000 },
});
