import { AppError } from '@billing/errors';
import { type GrpcService, unaryService } from '@billing/grpc';
import { paymentsV1 } from '@billing/proto';
import { listPaymentAttempts } from '../use-cases/attempts.js';
import { createPaymentCard, disablePaymentCard, getPaymentCard, listPaymentCards } from '../use-cases/cards.js';
import type { Charger } from '../use-cases/charging/charger.js';
import { processDue } from '../use-cases/charging/process-due.js';
import type { PaymentsDeps } from '../use-cases/deps.js';
import {
  completeNoopRegistration,
  createRegistrationLink,
  getRegistration,
  handleGatewayCallback,
} from '../use-cases/registrations.js';
import { paymentAttemptMessage, paymentCardMessage } from './card-mapper.js';

export function paymentsService(deps: PaymentsDeps, charger: Charger): GrpcService {
  return unaryService(paymentsV1.PaymentsServiceService, {
    createPaymentCard: async (request, context) => ({
      card: paymentCardMessage(
        await createPaymentCard(deps, context, {
          account: request.account,
          token: request.token,
          gateway: request.gateway,
        }),
      ),
    }),
    getPaymentCard: async (request, context) => ({
      card: paymentCardMessage(await getPaymentCard(deps, context, request.uuid)),
    }),
    listPaymentCards: async (request, context) => {
      const { count, cards } = await listPaymentCards(deps, context, {
        ...(request.account !== undefined ? { account: request.account } : {}),
        ...(request.active !== undefined ? { active: request.active } : {}),
        ordering: request.ordering === 'created_date' ? 'created_date' : '-created_date',
        offset: request.offset,
        limit: request.limit,
      });
      return { count, cards: cards.map(paymentCardMessage) };
    },
    disablePaymentCard: async (request, context) => ({
      card: paymentCardMessage(await disablePaymentCard(deps, context, request.uuid)),
    }),
    createCardRegistrationLink: async (request, context) => ({
      url: await createRegistrationLink(deps, context, {
        account: request.account,
        gateway: request.gateway,
        currency: request.currency ?? null,
        redirectUrl: request.redirect_url ?? null,
        publicBaseUrl: request.public_base_url,
      }),
    }),
    getCardRegistration: async (request) => {
      const view = await getRegistration(deps, request.registration);
      return {
        registration: view.registration,
        gateway: view.gateway,
        status: view.status,
        redirect_url: view.redirectUrl,
        ...(view.card ? { card: paymentCardMessage(view.card) } : {}),
      };
    },
    completeNoopRegistration: async (request) => {
      const { card, redirectUrl } = await completeNoopRegistration(deps, request.registration, request.token);
      return { card: paymentCardMessage(card), redirect_url: redirectUrl };
    },
    handleGatewayCallback: async (request) => ({
      result: await handleGatewayCallback(deps, {
        gateway: request.gateway,
        organization: request.organization,
        body: request.body,
        headers: request.headers,
      }),
    }),
    processDue: async (request, context) => {
      if (!request.until) throw AppError.invalidField('until', 'This field is required.');
      return { attempts: await processDue(deps, charger, context, request.until) };
    },
    listPaymentAttempts: async (request, context) => ({
      attempts: (await listPaymentAttempts(deps, context, request.invoice)).map(paymentAttemptMessage),
    }),
  });
}
