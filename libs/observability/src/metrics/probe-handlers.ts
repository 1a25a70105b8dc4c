import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkReadiness, type ReadinessCheck } from './readiness.js';
import { metricsRegistry } from './registry.js';

/**
 * Answers GET /metrics, /healthz and /readyz on a plain node:http request; false for any other
 * path (the caller answers it). /healthz: the process runs (liveness). /readyz: every readiness
 * check passed (200), else 503 naming the failing ones, as JSON, with why each failed unless
 * `hideReasons` (a port facing the Internet must not show internal addresses): then a failed check
 * shows 'failed' and `onNotReady` hears the reasons (for the log).
 */
export async function answerProbe(
  req: IncomingMessage,
  res: ServerResponse,
  checks: readonly ReadinessCheck[],
  options: { metrics: boolean; hideReasons?: boolean; onNotReady?: (checks: Record<string, string>) => void },
): Promise<boolean> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (path === '/healthz') {
    send(res, 200, 'application/json', JSON.stringify({ status: 'alive' }));
    return true;
  }
  if (path === '/readyz') {
    const report = await checkReadiness(checks);
    if (!report.ready) options.onNotReady?.(report.checks);
    const shown = options.hideReasons
      ? Object.fromEntries(
          Object.entries(report.checks).map(([name, outcome]) => [name, outcome === 'ok' ? 'ok' : 'failed']),
        )
      : report.checks;
    const body = JSON.stringify({ status: report.ready ? 'ready' : 'not ready', checks: shown });
    send(res, report.ready ? 200 : 503, 'application/json', body);
    return true;
  }
  if (path === '/metrics' && options.metrics) {
    send(res, 200, metricsRegistry.contentType, await metricsRegistry.metrics());
    return true;
  }
  return false;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}
