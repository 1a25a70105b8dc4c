import { type Router as ExpressRouter, Router } from 'express';
import type { HttpLogger } from './http-logger.js';

/** Resolves when the gateway can serve requests; rejects when it cannot. */
export type ReadinessCheck = () => Promise<void>;

const NOT_READY_AFTER_MS = 2_000;

/**
 * Kubernetes' probes (the Helm chart's): GET /livez answers while the process does (a restart
 * would not help otherwise), GET /readyz only while `isReady` resolves within two seconds. Outside
 * the API: no token, no rate limit, no request log line per probe.
 */
export function probeRoutes(isReady: ReadinessCheck, logger: HttpLogger): ExpressRouter {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/livez', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${NOT_READY_AFTER_MS} ms`)), NOT_READY_AFTER_MS);
    });
    try {
      await Promise.race([isReady(), timeout]);
      res.json({ status: 'ready' });
    } catch (error) {
      // The reason goes to the log only: the gateway's port may face the Internet.
      logger.warn({ err: { message: (error as Error).message } }, 'not ready');
      res.status(503).json({ status: 'unavailable' });
    } finally {
      clearTimeout(timer);
    }
  });
  return router;
}
