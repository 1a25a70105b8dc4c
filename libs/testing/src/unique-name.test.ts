import { describe, expect, it } from 'vitest';
import { uniqueName } from './unique-name.js';

describe('uniqueName', () => {
  it('keeps the prefix readable and makes it safe for Postgres, NATS subjects and stream names', () => {
    const name = uniqueName('Relay.Test-1');
    expect(name).toMatch(/^relay_test_1_[0-9a-f]{8}$/);
  });

  it('never repeats', () => {
    const names = new Set(Array.from({ length: 200 }, () => uniqueName('x')));
    expect(names.size).toBe(200);
  });
});
