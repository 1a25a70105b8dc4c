import type { Logger } from '@billing/observability';
import { type BackgroundWorker, startPollingWorker } from '@billing/runtime';
import { sendDueExpiryNotices } from '../use-cases/card-expiry-notices.js';
import type { PaymentsDeps } from '../use-cases/deps.js';

/** card_expires_this_month for organizations on the real clock (test clocks: their advance). */
export function startCardExpiryNotifier(deps: PaymentsDeps, intervalMs: number, logger: Logger): BackgroundWorker {
  return startPollingWorker('card-expiry-notices', intervalMs, logger, () => sendDueExpiryNotices(deps));
}
