import { isAppError } from '@billing/errors';
import express, { type Router } from 'express';
import type { ServiceClients } from '../clients/service-clients.js';

const NOOP_CARDS = [
  ['noop_visa', 'Visa •••• 4242 (payments succeed)'],
  ['noop_mastercard', 'Mastercard •••• 4444 (payments succeed)'],
  ['noop_declined', 'Visa •••• 0002 (payments are declined)'],
] as const;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.5rem 0}button{margin-top:1rem;padding:.5rem 1rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/**
 * The noop gateway's card-entry page (gaps.md §11: "for noop, a page of ours"): the customer picks
 * one of its test cards; submitting registers it through PaymentsService.CompleteNoopRegistration
 * (once per registration, however often it is submitted) and sends the customer to the link's
 * redirect_url. The registration id in the path is the page's only secret, as a hosted card page's
 * session id is.
 */
export function noopCardPages({ payments }: Pick<ServiceClients, 'payments'>): Router {
  const router = express.Router({ strict: true });
  const send = (res: express.Response, status: number, html: string) =>
    res.status(status).type('text/html; charset=utf-8').set('Cache-Control', 'no-store').send(html);
  const notFoundPage = page('Card registration not found', '<p>This link is not valid.</p>');

  router.get('/payments/noop/:registration/', async (req, res) => {
    try {
      const registration = await payments.call('getCardRegistration', { registration: req.params.registration });
      if (registration.gateway !== 'noop') return send(res, 404, notFoundPage);
      if (registration.status === 'completed') {
        return send(
          res,
          200,
          page('Card registered', `<p>Card ${escapeHtml(registration.card?.card_number ?? '')} is registered.</p>`),
        );
      }
      const choices = NOOP_CARDS.map(
        ([token, label], index) =>
          `<label><input type="radio" name="token" value="${token}"${index === 0 ? ' checked' : ''}> ${escapeHtml(label)}</label>`,
      ).join('');
      return send(
        res,
        200,
        page(
          'Add a card (noop test gateway)',
          `<p>No money moves: this is the built-in test gateway.</p><form method="post">${choices}<button type="submit">Register card</button></form>`,
        ),
      );
    } catch (error) {
      if (isAppError(error) && error.reason === 'NOT_FOUND') return send(res, 404, notFoundPage);
      return send(res, 502, page('Something went wrong', '<p>Please try again.</p>'));
    }
  });

  router.post(
    '/payments/noop/:registration/',
    express.urlencoded({ extended: false, limit: '4kb' }),
    async (req, res) => {
      try {
        const token = typeof req.body?.token === 'string' ? req.body.token : '';
        const done = await payments.call('completeNoopRegistration', { registration: req.params.registration, token });
        if (done.redirect_url) return res.redirect(303, done.redirect_url);
        return send(
          res,
          200,
          page('Card registered', `<p>Card ${escapeHtml(done.card?.card_number ?? '')} is registered.</p>`),
        );
      } catch (error) {
        if (isAppError(error) && error.reason === 'NOT_FOUND') return send(res, 404, notFoundPage);
        if (isAppError(error)) {
          const why = error.fieldViolations[0]?.description ?? error.message;
          return send(res, 400, page('Card not registered', `<p>${escapeHtml(why)}</p>`));
        }
        return send(res, 502, page('Something went wrong', '<p>Please try again.</p>'));
      }
    },
  );
  return router;
}
