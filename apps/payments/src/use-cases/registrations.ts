import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { EventEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { PAYMENT_GATEWAYS } from '@billing/reference-data';
import { changeScope, requireOrganization } from '@billing/runtime';
import { LockMode } from '@mikro-orm/postgresql';
import { paymentCardView } from '../db/card-view.js';
import { CardRegistrationEntity, type CardRegistrationRow } from '../db/entities/card-registration.entity.js';
import { PaymentCardEntity } from '../db/entities/payment-card.entity.js';
import { GatewayCallbackRejected, UnknownCardToken } from '../domain/gateway-adapter.js';
import type { CardDetails, PaymentCardView } from '../domain/payment-card.js';
import { registrationLinkViolations } from '../domain/registration-link.js';
import { invalidAccount, storeCard } from './cards.js';
import { systemContext } from './charging/run-attempt.js';
import type { PaymentsDeps } from './deps.js';
import { gatewayFor } from './gateway-for.js';

export interface RegistrationLinkInput {
  account: string;
  gateway: string;
  currency: string | null;
  redirectUrl: string | null;
  /** The REST gateway's public base URL (our own pages live there). */
  publicBaseUrl: string;
}

/** Where the noop gateway's card-entry page of a registration is served (by the REST gateway). */
export const noopPagePath = (registrationId: string): string => `/payments/noop/${registrationId}/`;

/**
 * card-registration-link (gaps.md §11): checks the spec's rules for the gateway, records the
 * registration, then asks the gateway for its card-entry page (noop: ours). The gateway's callback
 * registers the card later, exactly once (registerFromGateway).
 */
export async function createRegistrationLink(
  deps: PaymentsDeps,
  context: RequestContext,
  input: RegistrationLinkInput,
): Promise<string> {
  const organizationId = requireOrganization(context);
  if (!(PAYMENT_GATEWAYS as readonly string[]).includes(input.gateway)) {
    throw AppError.invalidField('gateway', `"${input.gateway}" is not a valid choice.`);
  }
  const violations = registrationLinkViolations(input);
  if (violations.length > 0) throw AppError.invalid(violations);
  if (!isUuid(input.account) || !(await deps.directory.account(context, input.account))) {
    throw invalidAccount(input.account);
  }
  const adapter = await gatewayFor(deps, context, input.gateway);
  const id = randomUUID();
  const now = deps.clock.now();
  await inTransaction(deps.orm, async (em) => {
    em.create(CardRegistrationEntity, {
      id,
      organization_id: organizationId,
      account_id: input.account.toLowerCase(),
      gateway: input.gateway,
      currency: input.currency || null,
      redirect_url: input.redirectUrl ?? '',
      external_id: '',
      card_id: null,
      created_at: now,
      completed_at: null,
    });
    await em.flush();
  });
  const base = input.publicBaseUrl.replace(/\/+$/, '');
  const started = await adapter.startRegistration({
    registrationId: id,
    accountId: input.account.toLowerCase(),
    currency: input.currency || null,
    returnUrl: input.redirectUrl ?? `${base}/`,
    noopPageUrl: `${base}${noopPagePath(id)}`,
  });
  if (started.externalId) {
    await deps.orm.em.fork().nativeUpdate(CardRegistrationEntity, { id }, { external_id: started.externalId });
  }
  return started.url;
}

export interface RegistrationView {
  registration: string;
  gateway: string;
  status: 'open' | 'completed';
  redirectUrl: string;
  card: PaymentCardView | null;
}

/** A registration as its page shows it; the registration id is the page's secret. */
export async function getRegistration(deps: PaymentsDeps, registrationId: string): Promise<RegistrationView> {
  if (!isUuid(registrationId)) throw AppError.notFound();
  const em = deps.orm.em.fork();
  const row = await em.findOne(CardRegistrationEntity, { id: registrationId.toLowerCase() });
  if (!row) throw AppError.notFound();
  const card = row.card_id ? await em.findOne(PaymentCardEntity, { id: row.card_id }) : null;
  return {
    registration: row.id,
    gateway: row.gateway,
    status: row.card_id ? 'completed' : 'open',
    redirectUrl: row.redirect_url,
    card: card ? paymentCardView(card) : null,
  };
}

/**
 * Registers the card of a registration, exactly once: the registration row is locked, and a
 * registration that has its card already answers with that card (a repeated callback, a page
 * submitted twice).
 */
async function completeRegistration(
  deps: PaymentsDeps,
  registration: CardRegistrationRow,
  details: CardDetails,
): Promise<{ card: PaymentCardView; registered: boolean }> {
  const context = systemContext(registration.organization_id);
  let published: EventEnvelope[] = [];
  const outcome = await inTransaction(deps.orm, async (em) => {
    published = [];
    const row = await em.findOneOrFail(
      CardRegistrationEntity,
      { id: registration.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (row.card_id) {
      return {
        card: paymentCardView(await em.findOneOrFail(PaymentCardEntity, { id: row.card_id })),
        registered: false,
      };
    }
    const now = deps.clock.now();
    const scope = changeScope(em, 'payments', row.organization_id, context, now, published);
    const card = await storeCard(scope, row.account_id, row.gateway, details);
    em.assign(row, { card_id: card.uuid, completed_at: now });
    await em.flush();
    return { card, registered: true };
  });
  // The activation reaches the accounts read model at once, as after POST /paymentcards/.
  if (published.length > 0 && deps.committedEvents) await deps.committedEvents(published, context);
  return outcome;
}

/** The noop gateway's page was filled in with one of its test tokens. */
export async function completeNoopRegistration(
  deps: PaymentsDeps,
  registrationId: string,
  token: string,
): Promise<{ card: PaymentCardView; redirectUrl: string }> {
  if (!isUuid(registrationId)) throw AppError.notFound();
  const registration = await deps.orm.em
    .fork()
    .findOne(CardRegistrationEntity, { id: registrationId.toLowerCase(), gateway: 'noop' });
  if (!registration) throw AppError.notFound();
  const adapter = deps.gateways('noop', null);
  let details: CardDetails;
  try {
    details = await adapter.retrieveCard(token);
  } catch (error) {
    if (error instanceof UnknownCardToken) throw AppError.invalidField('token', error.message);
    throw error;
  }
  const { card } = await completeRegistration(deps, registration, details);
  return { card, redirectUrl: registration.redirect_url };
}

/**
 * A gateway's callback (cardgw_a: a signed webhook event): verified with the organization's
 * credentials, then a completed registration registers its card, once.
 */
export async function handleGatewayCallback(
  deps: PaymentsDeps,
  input: { gateway: string; organization: string; body: Uint8Array; headers: Record<string, string> },
): Promise<'registered' | 'duplicate' | 'ignored'> {
  if (!isUuid(input.organization)) throw AppError.notFound();
  const context = systemContext(input.organization.toLowerCase());
  const adapter = await gatewayFor(deps, context, input.gateway);
  let callback: Awaited<ReturnType<typeof adapter.parseCallback>>;
  try {
    callback = await adapter.parseCallback(input.body, input.headers);
  } catch (error) {
    if (error instanceof GatewayCallbackRejected) throw AppError.invalidField('signature', error.message);
    throw error;
  }
  if (callback.kind === 'ignored') return 'ignored';
  const registration = isUuid(callback.registrationId)
    ? await deps.orm.em.fork().findOne(CardRegistrationEntity, {
        id: callback.registrationId.toLowerCase(),
        organization_id: context.organizationId!,
        gateway: input.gateway,
      })
    : null;
  if (!registration) {
    deps.logger.warn(
      { event: callback.eventId, gateway: input.gateway },
      'gateway callback names no registration of ours; ignored',
    );
    return 'ignored';
  }
  if (registration.card_id) return 'duplicate';
  const details = await adapter.retrieveCard(callback.token);
  const { registered } = await completeRegistration(deps, registration, details);
  return registered ? 'registered' : 'duplicate';
}
