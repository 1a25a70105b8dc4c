const DEFAULT_TEST_NATS_URL = 'nats://127.0.0.1:4222';

/** The shared NATS server integration tests publish to (TEST_NATS_URL); isolate with uniqueName(). */
export function testNatsUrl(): string {
  return process.env.TEST_NATS_URL ?? DEFAULT_TEST_NATS_URL;
}
