import { isAppError } from '@billing/errors';
import { type RequestContext, runWithContext } from '@billing/observability';
import type { selfServiceV1 } from '@billing/proto';
import express, { type Request, type Response, type Router } from 'express';
import type { ServiceClients } from '../../clients/service-clients.js';
import { absoluteRequestUrl, hidePathInLog } from '../../http/index.js';
import { requestState } from '../../http/request-state.js';
import { clearedSelfServiceCookie, selfServiceCookie, selfServiceSessionToken } from './self-service-cookie.js';
import { accountChooserPage, accountPage, messagePage, signInPage } from './self-service-html.js';
import { SELF_SERVICE_ROOT, SELF_SERVICE_SIGN_OUT, selfServiceAccountPath } from './self-service-paths.js';
import { type SelfServiceTexts, selfServiceTexts } from './self-service-texts.js';

/** The client system the services record self-service requests with (audit rows, logs). */
export const SELF_SERVICE_CLIENT_SYSTEM = 'self-service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Most recent first; the page shows at most this many of each. */
const LIST_LIMIT = 100;

const CONTENT_SECURITY_POLICY =
  // No script runs; forms post to us, and "add a card" may go on to a gateway's hosted page (https).
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https:; frame-ancestors 'none'; base-uri 'none'";

const NOTICES = { card_added: 'cardAdded', card_disabled: 'cardDisabled' } as const;

function send(res: Response, status: number, html: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      // The sign-in page's URL holds its token: no Referer carries it to another site. (Not
      // no-referrer: under it a browser sends `Origin: null` with the forms, failing their check.)
      'Referrer-Policy': 'same-origin',
    })
    .send(html);
}

/** A form from another site (its Origin not ours) is refused, as the browsable view's are. */
function fromThisSite(req: Request): boolean {
  const origin = req.get('Origin');
  return origin === undefined || origin === `${req.protocol}://${req.get('Host')}`;
}

const reasonOf = (error: unknown): string | undefined => (isAppError(error) ? error.reason : undefined);

/** A refusal or failure as a page in `texts`' language. */
function sendFailure(res: Response, texts: SelfServiceTexts, error: unknown): void {
  sendRefusal(res, texts, reasonOf(error));
}

/** On the link's own pages an unknown token is an invalid link, not a missing page. */
const linkReason = (error: unknown): string | undefined =>
  reasonOf(error) === 'NOT_FOUND' ? 'LINK_UNKNOWN' : reasonOf(error);

function sendRefusal(res: Response, texts: SelfServiceTexts, reason: string | undefined): void {
  const [status, page] = refusalPage(texts, reason);
  send(res, status, page);
}

function refusalPage(texts: SelfServiceTexts, reason: string | undefined): [number, string] {
  switch (reason) {
    case 'NOT_FOUND':
      return [404, messagePage(texts, texts.notFound, texts.notFound)];
    case 'LINK_UNKNOWN':
      return [404, messagePage(texts, texts.signInTitle, texts.linkUnknown, texts.askForNewLink)];
    case 'INVALID_TOKEN':
      return [401, messagePage(texts, texts.signInTitle, texts.notSignedIn, texts.askForNewLink)];
    case 'SELF_SERVICE_OFF':
      return [403, messagePage(texts, texts.unavailable, texts.unavailable)];
    case 'LINK_USED':
      return [410, messagePage(texts, texts.signInTitle, texts.linkUsed, texts.askForNewLink)];
    case 'LINK_EXPIRED':
      return [410, messagePage(texts, texts.signInTitle, texts.linkExpired, texts.askForNewLink)];
    default:
      return [502, messagePage(texts, texts.somethingWrong, texts.somethingWrong)];
  }
}

type Session = selfServiceV1.GetSelfServiceSessionResponse;
type SessionAccount = selfServiceV1.SelfServiceAccount;

/**
 * The customer's self-service pages (gaps.md §11; docs/api.md "Self-service"), server-rendered in
 * the account's language: the sign-in link, the account's invoices (PDF), subscriptions and
 * payment cards (add through the gateway's card-entry page, disable). The accounts service owns
 * links and sessions; each page calls the services as the session's organization, recorded with
 * client system `self-service` and the customer's e-mail as external user.
 */
export function selfServicePages(clients: ServiceClients): Router {
  const { selfService, invoicing, subscriptions, payments } = clients;
  const router = express.Router({ strict: true });
  const form = express.urlencoded({ extended: false, limit: '4kb' });
  const english = selfServiceTexts('en');

  // The sign-in token is a secret until used: the access log shows the template, not the path.
  const SIGN_IN = '/self-service/sign-in/:token/';
  router.all(SIGN_IN, (req, _res, next) => {
    hidePathInLog(req, '/self-service/sign-in/{token}/');
    next();
  });

  router.get(SIGN_IN, async (req, res) => {
    try {
      const link = await selfService.call('getSelfServiceLink', { token: req.params.token });
      const texts = selfServiceTexts(link.language);
      if (link.state === 'valid') return send(res, 200, signInPage(texts));
      sendRefusal(res, texts, link.state === 'used' ? 'LINK_USED' : 'LINK_EXPIRED');
    } catch (error) {
      sendRefusal(res, english, linkReason(error));
    }
  });

  router.post(SIGN_IN, form, async (req, res) => {
    let texts = english;
    try {
      if (!fromThisSite(req)) return send(res, 403, messagePage(texts, texts.signInTitle, texts.notSignedIn));
      texts = selfServiceTexts((await selfService.call('getSelfServiceLink', { token: req.params.token })).language);
      const session = await selfService.call('signInSelfService', { token: req.params.token });
      res.setHeader('Set-Cookie', selfServiceCookie(session.session_token, req.secure));
      res.redirect(303, SELF_SERVICE_ROOT);
    } catch (error) {
      sendRefusal(res, texts, linkReason(error));
    }
  });

  router.post(SELF_SERVICE_SIGN_OUT, form, async (req, res) => {
    try {
      if (!fromThisSite(req)) return send(res, 403, messagePage(english, english.signOut, english.notSignedIn));
      const token = selfServiceSessionToken(req) ?? '';
      // Said in the language of the session being ended, when it is still open.
      const language = await selfService
        .call('getSelfServiceSession', { session_token: token })
        .then((session) => session.accounts[0]?.language)
        .catch(() => undefined);
      await selfService.call('signOutSelfService', { session_token: token });
      res.setHeader('Set-Cookie', clearedSelfServiceCookie(req.secure));
      const texts = selfServiceTexts(language);
      send(res, 200, messagePage(texts, texts.signOut, texts.signedOut));
    } catch (error) {
      sendFailure(res, english, error);
    }
  });

  /**
   * Runs `page` as the signed-in customer: the session read afresh (a recipient removed or the
   * feature turned off ends the access at once) and the services called in its organization.
   */
  const signedIn =
    (page: (req: Request, res: Response, session: Session) => Promise<void>) =>
    async (req: Request, res: Response): Promise<void> => {
      let session: Session;
      try {
        session = await selfService.call('getSelfServiceSession', {
          session_token: selfServiceSessionToken(req) ?? '',
        });
      } catch (error) {
        return sendFailure(res, english, error);
      }
      const state = requestState(req);
      const context: RequestContext = {
        requestId: state.context.requestId,
        organizationId: session.organization_id,
        organizationTimeZone: session.organization_time_zone,
        ...(session.organization_time ? { organizationTime: session.organization_time.toISOString() } : {}),
        clientSystem: SELF_SERVICE_CLIENT_SYSTEM,
        externalUser: session.email,
      };
      state.context = context;
      await runWithContext(context, async () => {
        try {
          await page(req, res, session);
        } catch (error) {
          sendFailure(res, selfServiceTexts(session.accounts[0]?.language), error);
        }
      });
    };

  /** The session's account named in the path; another account (of any organization) is 404. */
  const withAccount = (
    page: (req: Request, res: Response, session: Session, account: SessionAccount) => Promise<void>,
  ) =>
    signedIn(async (req, res, session) => {
      const account = session.accounts.find((candidate) => candidate.uuid === req.params.account);
      // Every other path parameter names an object by uuid: anything else names nothing here.
      const others = Object.entries(req.params).filter(([name]) => name !== 'account');
      if (!account || others.some(([, value]) => !UUID.test(String(value)))) {
        const texts = selfServiceTexts(session.accounts[0]?.language);
        return send(res, 404, messagePage(texts, texts.notFound, texts.notFound));
      }
      await page(req, res, session, account);
    });

  router.get(
    SELF_SERVICE_ROOT,
    signedIn(async (_req, res, session) => {
      if (session.accounts.length === 1) return res.redirect(303, selfServiceAccountPath(session.accounts[0]!.uuid));
      send(res, 200, accountChooserPage(selfServiceTexts(session.accounts[0]?.language), session));
    }),
  );

  router.get(
    '/self-service/accounts/:account/',
    withAccount(async (req, res, session, account) => {
      const texts = selfServiceTexts(account.language);
      const [invoiceList, subscriptionList, cardList] = await Promise.all([
        invoicing.call('listInvoices', {
          page: { page: 1, page_size: LIST_LIMIT, ordering: '-invoice_number' },
          filter: { account: account.uuid, search_accounts: [] },
        }),
        subscriptions.call('listSubscriptions', {
          page: { page: 1, page_size: LIST_LIMIT, ordering: '-created_date' },
          filter: { account: account.uuid, account_in: [], account_in_set: false },
        }),
        payments.call('listPaymentCards', {
          offset: 0,
          limit: LIST_LIMIT,
          account: account.uuid,
          ordering: '-created_date',
        }),
      ]);
      const noticeKey = NOTICES[String(req.query.notice) as keyof typeof NOTICES];
      send(
        res,
        200,
        accountPage(texts, {
          session,
          account,
          invoices: invoiceList.invoices,
          subscriptions: subscriptionList.subscriptions,
          cards: cardList.cards,
          notice: noticeKey ? texts[noticeKey] : undefined,
        }),
      );
    }),
  );

  router.get(
    '/self-service/accounts/:account/invoices/:invoice/pdf/',
    withAccount(async (req, res, _session, account) => {
      const texts = selfServiceTexts(account.language);
      const reply = await invoicing.call('getInvoice', { uuid: String(req.params.invoice), with_pdf: true });
      if (reply.invoice?.account !== account.uuid)
        return send(res, 404, messagePage(texts, texts.notFound, texts.notFound));
      const name = `invoice-${reply.invoice.invoice_number ?? reply.invoice.uuid}.pdf`;
      res
        .status(200)
        .set({
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${name}"`,
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        })
        .send(Buffer.from(reply.pdf));
    }),
  );

  router.post(
    '/self-service/accounts/:account/cards/:card/disable/',
    form,
    withAccount(async (req, res, _session, account) => {
      const texts = selfServiceTexts(account.language);
      if (!fromThisSite(req)) return send(res, 403, messagePage(texts, texts.notFound, texts.notFound));
      const { card } = await payments.call('getPaymentCard', { uuid: String(req.params.card) });
      if (card?.account !== account.uuid) return send(res, 404, messagePage(texts, texts.notFound, texts.notFound));
      await payments.call('disablePaymentCard', { uuid: card.uuid });
      res.redirect(303, `${selfServiceAccountPath(account.uuid)}?notice=card_disabled`);
    }),
  );

  router.post(
    '/self-service/accounts/:account/cards/add/',
    form,
    withAccount(async (req, res, _session, account) => {
      const texts = selfServiceTexts(account.language);
      if (!fromThisSite(req) || !account.card_gateway) {
        return send(res, 403, messagePage(texts, texts.addCard, texts.cannotAddCard));
      }
      const origin = absoluteRequestUrl(req).origin;
      const { url } = await payments.call('createCardRegistrationLink', {
        account: account.uuid,
        gateway: account.card_gateway,
        redirect_url: `${origin}${selfServiceAccountPath(account.uuid)}?notice=card_added`,
        public_base_url: origin,
      });
      res.redirect(303, url);
    }),
  );

  return router;
}
