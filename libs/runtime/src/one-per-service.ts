import type { ServiceDeps } from './service-module.js';

/**
 * `make(deps)` made once per started service (its ServiceDeps) and handed to everything of that
 * service that asks, e.g. a cache its gRPC handlers and its workers share. Another start of the
 * module (a test starting two replicas in one process) gets its own.
 */
export function onePerService<T>(make: (deps: ServiceDeps) => T): (deps: ServiceDeps) => T {
  const made = new WeakMap<ServiceDeps, T>();
  return (deps) => {
    if (made.has(deps)) return made.get(deps) as T;
    const value = make(deps);
    made.set(deps, value);
    return value;
  };
}
