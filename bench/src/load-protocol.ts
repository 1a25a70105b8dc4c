/** What the bench process asks the load process to do (plain data: it crosses an IPC channel). */
export interface LoadRequest {
  /** Origin only, e.g. http://127.0.0.1:41234. */
  origin: string;
  /** Request paths, cycled through by every connection. */
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  /** Completed responses per second over the phase (all statuses; failures are counted apart). */
  requestsPerSecond: number;
  totalRequests: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors and timeouts. */
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
  /** CPU time (user + system) the load process spent, in microseconds. */
  loadCpuMicros: number;
}
