import type { Logger } from '@billing/observability';
import type { BackgroundWorker } from '@billing/runtime';
import { attemptClaim, claimDue } from '../use-cases/webhooks/deliver-due.js';
import { recordDueRenewalNotices } from '../use-cases/webhooks/renewal-notices.js';
import type { WebhooksDeps } from '../use-cases/webhooks/webhooks-deps.js';

export interface WebhookDispatcher extends BackgroundWorker {
  /** Deliveries may have fallen due (new ones, a resend): look now rather than at the next poll. */
  wake(): void;
}

/**
 * Delivers due webhooks in the background, for every organization (each on its own clock), after
 * making the renewal notices that fell due (renew_subscription_soon). Each webhook's claimed
 * deliveries go `endpointConcurrency` at a time (a slow endpoint holds up only itself), up to
 * `maxConcurrency` webhooks at once; a pass never waits for the HTTP calls it started, so one
 * endpoint that hangs until the timeout delays no other. Replicas share the work through the
 * deliveries' leases.
 */
export function startWebhookDispatcher(deps: WebhooksDeps, logger: Logger): WebhookDispatcher {
  const busy = new Set<string>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let passing: Promise<void> | null = null;
  let again = false;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, delayMs);
  };

  // Renewal notices are looked for once per poll interval, not on every wake (a busy hand-over
  // wakes the dispatcher after each event).
  let renewalsScannedAt = Number.NEGATIVE_INFINITY;
  const pass = async (): Promise<void> => {
    if (performance.now() - renewalsScannedAt >= deps.webhooks.pollIntervalMs) {
      renewalsScannedAt = performance.now();
      await recordDueRenewalNotices(deps, null);
    }
    const free = deps.webhooks.maxConcurrency - busy.size;
    if (free <= 0) return;
    const groups = await claimDue(deps, { busy: [...busy], webhooks: free, organizationId: null });
    for (const group of groups) {
      const webhookId = group[0]!.webhookId;
      busy.add(webhookId);
      const chain = attemptClaim(deps, group)
        .catch((error: unknown) => logger.error({ err: error, webhook: webhookId }, 'webhook delivery failed'))
        .finally(() => {
          busy.delete(webhookId);
          running.delete(chain);
          // Its next deliveries may be due already.
          wake();
        });
      running.add(chain);
    }
  };

  function run() {
    timer = null;
    if (stopped) return;
    if (passing) {
      again = true;
      return;
    }
    passing = pass()
      .catch((error: unknown) => logger.error({ err: error, worker: 'webhook-dispatcher' }, 'worker pass failed'))
      .finally(() => {
        passing = null;
        if (again) {
          again = false;
          schedule(0);
        } else {
          schedule(deps.webhooks.pollIntervalMs);
        }
      });
  }

  function wake() {
    if (!stopped) schedule(0);
  }

  schedule(0);
  return {
    wake,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await passing;
      await Promise.all(running);
    },
  };
}
