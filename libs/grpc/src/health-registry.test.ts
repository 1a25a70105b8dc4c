import { describe, expect, it } from 'vitest';
import { HealthRegistry, type HealthWatcher, ServingStatus } from './health-registry.js';

function recordingWatcher() {
  const events: Array<ServingStatus | 'end'> = [];
  const watcher: HealthWatcher = { next: (status) => events.push(status), end: () => events.push('end') };
  return { events, watcher };
}

describe('HealthRegistry', () => {
  it('knows only the services it was told about', () => {
    const registry = new HealthRegistry();
    registry.setStatus('', ServingStatus.SERVING);

    expect(registry.getStatus('')).toBe(ServingStatus.SERVING);
    expect(registry.getStatus('billing.accounts.v1.AccountsService')).toBeUndefined();
  });

  it('tells a watcher the current status, then only changes of its own service', () => {
    const registry = new HealthRegistry();
    registry.setStatus('a', ServingStatus.SERVING);
    const { events, watcher } = recordingWatcher();

    registry.watch('a', watcher);
    registry.setStatus('a', ServingStatus.SERVING);
    registry.setStatus('b', ServingStatus.NOT_SERVING);
    registry.setStatus('a', ServingStatus.NOT_SERVING);

    expect(events).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
  });

  it('stops telling a watcher once it unwatches', () => {
    const registry = new HealthRegistry();
    const { events, watcher } = recordingWatcher();

    const unwatch = registry.watch('a', watcher);
    unwatch();
    registry.setStatus('a', ServingStatus.SERVING);

    expect(events).toEqual([ServingStatus.SERVICE_UNKNOWN]);
  });

  it('on shutdown reports NOT_SERVING everywhere, ends watches and ignores later reports', () => {
    const registry = new HealthRegistry();
    registry.setStatus('', ServingStatus.SERVING);
    registry.setStatus('a', ServingStatus.SERVING);
    const { events, watcher } = recordingWatcher();
    registry.watch('', watcher);

    registry.shutdown();
    registry.setStatus('', ServingStatus.SERVING);

    expect(events).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING, 'end']);
    expect([registry.getStatus(''), registry.getStatus('a')]).toEqual([
      ServingStatus.NOT_SERVING,
      ServingStatus.NOT_SERVING,
    ]);
  });

  it('ends a watch that starts after shutdown at once', () => {
    const registry = new HealthRegistry();
    registry.setStatus('', ServingStatus.SERVING);
    registry.shutdown();
    const { events, watcher } = recordingWatcher();

    registry.watch('', watcher);

    expect(events).toEqual([ServingStatus.NOT_SERVING, 'end']);
  });
});
