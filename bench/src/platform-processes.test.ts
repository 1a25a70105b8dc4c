import { describe, expect, it } from 'vitest';
import { SetupError } from './bench-platform.js';
import { retryingTakenPorts, withEnvironment } from './platform-processes.js';

const taken = () =>
  new SetupError(
    'accounts (pid 1) exited (code 1) while waiting for the gateway to answer; its last output:\nError: listen EADDRINUSE: address already in use 127.0.0.1:44677',
  );

/** A start that fails with each of `failures` in turn, then answers 'started'. */
function startFailingWith(failures: Error[]) {
  let calls = 0;
  return {
    start: async () => {
      const failure = failures[calls++];
      if (failure) throw failure;
      return 'started';
    },
    calls: () => calls,
  };
}

describe('retryingTakenPorts', () => {
  it('starts again when a server found its port taken, and says so', async () => {
    const logged: string[] = [];
    const attempt = startFailingWith([taken(), taken()]);
    await expect(retryingTakenPorts(attempt.start, (message) => logged.push(message))).resolves.toBe('started');
    expect(attempt.calls()).toBe(3);
    expect(logged).toEqual([
      'a server found the port it was given taken meanwhile; starting again on new ports (2 of 3)',
      'a server found the port it was given taken meanwhile; starting again on new ports (3 of 3)',
    ]);
  });

  it('gives up after three attempts with the last failure', async () => {
    const attempt = startFailingWith([taken(), taken(), taken(), taken()]);
    await expect(retryingTakenPorts(attempt.start, () => {})).rejects.toThrow('EADDRINUSE');
    expect(attempt.calls()).toBe(3);
  });

  it('does not start again for any other failure', async () => {
    const other = new SetupError('accounts (pid 1) exited (code 1): relation "account" does not exist');
    const attempt = startFailingWith([other]);
    await expect(retryingTakenPorts(attempt.start, () => {})).rejects.toBe(other);
    const plain = startFailingWith([new Error('listen EADDRINUSE (not a server of the platform)')]);
    await expect(retryingTakenPorts(plain.start, () => {})).rejects.toThrow('not a server');
    expect([attempt.calls(), plain.calls()]).toEqual([1, 1]);
  });
});

describe('withEnvironment', () => {
  it("lets a service's own variables win, but joins its NODE_OPTIONS to the profiling flags", () => {
    const bench = { LOG_LEVEL: 'warn', NODE_OPTIONS: '--cpu-prof --cpu-prof-dir=/tmp/p/payments' };
    expect(withEnvironment(bench, { LOG_LEVEL: 'debug', NODE_OPTIONS: '--import ./hold.mjs' })).toEqual({
      LOG_LEVEL: 'debug',
      NODE_OPTIONS: '--cpu-prof --cpu-prof-dir=/tmp/p/payments --import ./hold.mjs',
    });
    expect(withEnvironment({ LOG_LEVEL: 'warn' }, { NODE_OPTIONS: '--import ./hold.mjs' })).toEqual({
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: '--import ./hold.mjs',
    });
    expect(withEnvironment(bench, undefined)).toEqual(bench);
  });
});
