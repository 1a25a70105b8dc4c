import { describe, expect, it } from 'vitest';
import { onePerService } from './one-per-service.js';
import type { ServiceDeps } from './service-module.js';

describe('onePerService', () => {
  it('makes one value per started service, on first use, and hands the same one to every caller', () => {
    let made = 0;
    const counterOf = onePerService(() => ({ serial: ++made }));
    const first = {} as ServiceDeps;
    const second = {} as ServiceDeps;

    expect(made).toBe(0);
    expect(counterOf(first)).toEqual({ serial: 1 });
    expect(counterOf(first)).toBe(counterOf(first));
    expect(counterOf(second)).toEqual({ serial: 2 });
    expect(made).toBe(2);
  });

  it('keeps a value that is null (a service without an event bus) instead of making it again', () => {
    let made = 0;
    const nothingOf = onePerService(() => {
      made += 1;
      return null;
    });
    const deps = {} as ServiceDeps;
    expect(nothingOf(deps)).toBeNull();
    expect(nothingOf(deps)).toBeNull();
    expect(made).toBe(1);
  });
});
