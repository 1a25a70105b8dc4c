import { healthV1 } from '@billing/proto';

export const ServingStatus = healthV1.HealthCheckResponse_ServingStatus;
export type ServingStatus = healthV1.HealthCheckResponse_ServingStatus;

/** The statuses a service reports about itself; UNKNOWN and SERVICE_UNKNOWN are for answers only. */
export type ReportedStatus = typeof ServingStatus.SERVING | typeof ServingStatus.NOT_SERVING;

/** The whole server's status, as grpc.health.v1 names it. */
export const OVERALL = '';

export interface HealthWatcher {
  next(status: ServingStatus): void;
  /** The server is stopping: no further statuses will come. */
  end(): void;
}

/**
 * Serving status per service name, the state behind grpc.health.v1 Check and Watch. Once
 * shutdown() has run every service stays NOT_SERVING, so nothing can report SERVING mid-stop.
 */
export class HealthRegistry {
  readonly #statuses = new Map<string, ServingStatus>();
  readonly #watchers = new Map<HealthWatcher, string>();
  #shuttingDown = false;

  /** Sets one service's status; `''` is the whole server. */
  setStatus(service: string, status: ReportedStatus): void {
    if (this.#shuttingDown) return;
    this.#set(service, status);
  }

  /** Undefined for a service never reported (Check answers NOT_FOUND). */
  getStatus(service: string): ServingStatus | undefined {
    return this.#statuses.get(service);
  }

  /** Tells the watcher the service's current status now and every change later. Returns unwatch. */
  watch(service: string, watcher: HealthWatcher): () => void {
    watcher.next(this.#statuses.get(service) ?? ServingStatus.SERVICE_UNKNOWN);
    if (this.#shuttingDown) {
      watcher.end();
      return () => {};
    }
    this.#watchers.set(watcher, service);
    return () => this.#watchers.delete(watcher);
  }

  /**
   * Flips every service to NOT_SERVING, then ends the watches: an open Watch stream is a pending
   * call, and a graceful server shutdown would otherwise wait on it until its grace ran out.
   */
  shutdown(): void {
    if (this.#shuttingDown) return;
    for (const service of this.#statuses.keys()) this.#set(service, ServingStatus.NOT_SERVING);
    this.#shuttingDown = true;
    const watchers = [...this.#watchers.keys()];
    this.#watchers.clear();
    for (const watcher of watchers) watcher.end();
  }

  #set(service: string, status: ServingStatus): void {
    const previous = this.#statuses.get(service);
    this.#statuses.set(service, status);
    if (previous === status) return;
    for (const [watcher, watched] of this.#watchers) if (watched === service) watcher.next(status);
  }
}
