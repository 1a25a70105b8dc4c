import { isAppError } from '@billing/errors';
import express, { type Router } from 'express';
import type { ServiceClients } from '../clients/service-clients.js';

/** The headers gateways sign their callbacks with (cardgw_a: Stripe-Signature). */
const SIGNATURE_HEADERS = ['stripe-signature'];

/**
 * Where a payment gateway calls back (gaps.md §11: "registers the card automatically"):
 * `POST /payments/callbacks/{gateway}/{organization id}/`, the URL an operator registers as the
 * organization's webhook endpoint at the gateway (docs/api.md "Payments"). The raw body and the
 * signature header go to PaymentsService.HandleGatewayCallback, which verifies them with the
 * organization's credentials; 200 `{"received": true}` once applied (or known), 400 when the
 * signature does not verify.
 */
export function gatewayCallbacks({ payments }: Pick<ServiceClients, 'payments'>): Router {
  const router = express.Router({ strict: true });
  router.post(
    '/payments/callbacks/:gateway/:organization/',
    express.raw({ type: () => true, limit: '256kb' }),
    async (req, res) => {
      const headers: Record<string, string> = {};
      for (const name of SIGNATURE_HEADERS) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      try {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const { result } = await payments.call('handleGatewayCallback', {
          gateway: req.params.gateway,
          organization: req.params.organization,
          body,
          headers,
        });
        res.status(200).json({ received: true, result });
      } catch (error) {
        if (isAppError(error) && error.reason === 'NOT_FOUND')
          return void res.status(404).json({ detail: 'Not found.' });
        if (isAppError(error) && error.reason === 'VALIDATION_FAILED') {
          return void res.status(400).json({ detail: error.fieldViolations[0]?.description ?? error.message });
        }
        res.status(503).json({ detail: 'Try again later.' });
      }
    },
  );
  return router;
}
