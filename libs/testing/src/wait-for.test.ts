import { describe, expect, it } from 'vitest';
import { waitFor } from './wait-for.js';

describe('waitFor', () => {
  it('resolves with the first truthy value the predicate returns', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { calls } : undefined), { intervalMs: 1 });
    expect(value).toEqual({ calls: 3 });
  });

  it('fails after the timeout, naming what it waited for and the last error', async () => {
    await expect(
      waitFor(
        () => {
          throw new Error('not delivered yet');
        },
        { timeoutMs: 50, intervalMs: 5, description: 'the invoice event' },
      ),
    ).rejects.toThrow(/Timed out after 50 ms waiting for the invoice event \(last error: not delivered yet\)/);
  });
});
