import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A payment intent as the fake recorded it. */
export interface FakeCharge {
  id: string;
  idempotencyKey: string;
  amount: number;
  currency: string;
  paymentMethod: string;
  customer: string | null;
  offSession: boolean;
  status: 'succeeded' | 'declined';
}

interface FakeCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  name: string;
  declines: boolean;
}

/**
 * A local stand-in for the few Stripe API endpoints the cardgw_a adapter calls, speaking Stripe's
 * wire format (form-encoded requests, JSON objects with `object`, errors as `{error: {type, code,
 * ...}}`, Idempotency-Key replays) and signing webhook events as Stripe does
 * (`Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 of "t.payload">`). Shapes follow stripe/openapi.
 * Test payment methods: pm_card_visa, pm_card_mastercard, pm_card_chargeDeclined. Used by the
 * contract tests and by bench:charges, which gives every answer `latencyMs` of delay (a gateway's
 * round trip).
 */
export async function startFakeStripe(options: { webhookSecret: string; latencyMs?: number }) {
  const cards = new Map<string, FakeCard>([
    [
      'pm_card_visa',
      { brand: 'visa', last4: '4242', exp_month: 8, exp_year: 2031, name: 'Jenny Rosen', declines: false },
    ],
    [
      'pm_card_mastercard',
      { brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2030, name: '', declines: false },
    ],
    [
      'pm_card_chargeDeclined',
      { brand: 'visa', last4: '0002', exp_month: 1, exp_year: 2032, name: '', declines: true },
    ],
  ]);
  const sessions = new Map<string, Record<string, unknown>>();
  const setupIntents = new Map<string, { id: string; payment_method: string }>();
  const replies = new Map<string, { status: number; body: unknown }>();
  const charges: FakeCharge[] = [];
  const requests: Array<{ method: string; path: string; idempotencyKey: string | null }> = [];
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

  const paymentMethod = (pmId: string, card: FakeCard) => ({
    id: pmId,
    object: 'payment_method',
    type: 'card',
    customer: null,
    billing_details: { name: card.name || null, email: null, phone: null, address: null },
    card: {
      brand: card.brand,
      last4: card.last4,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      country: 'US',
      funding: 'credit',
    },
    created: Math.floor(Date.now() / 1000),
    livemode: false,
  });

  const notFound = (what: string) => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
  });

  const handle = (method: string, path: string, form: URLSearchParams): { status: number; body: unknown } => {
    let match = /^\/v1\/payment_methods\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const card = cards.get(match[1]!);
      return card ? { status: 200, body: paymentMethod(match[1]!, card) } : notFound(`payment_method: '${match[1]}'`);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const session = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: form.get('mode'),
        client_reference_id: form.get('client_reference_id'),
        currency: form.get('currency'),
        success_url: form.get('success_url'),
        cancel_url: form.get('cancel_url'),
        metadata: { registration: form.get('metadata[registration]'), account: form.get('metadata[account]') },
        setup_intent: null as string | null,
        status: 'open',
        url: '',
      };
      session.url = `${baseUrl}/c/pay/${session.id}`;
      sessions.set(session.id, session);
      return { status: 200, body: session };
    }
    match = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const intent = setupIntents.get(match[1]!);
      return intent
        ? { status: 200, body: { ...intent, object: 'setup_intent', status: 'succeeded' } }
        : notFound('setup_intent');
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const pm = form.get('payment_method') ?? '';
      const card = cards.get(pm);
      if (!card) return notFound(`payment_method: '${pm}'`);
      const intent = {
        id: id('pi'),
        object: 'payment_intent',
        amount: Number(form.get('amount')),
        currency: form.get('currency'),
        payment_method: pm,
        customer: form.get('customer'),
        description: form.get('description'),
        status: card.declines ? 'requires_payment_method' : 'succeeded',
      };
      charges.push({
        id: intent.id,
        idempotencyKey: '',
        amount: intent.amount,
        currency: intent.currency ?? '',
        paymentMethod: pm,
        customer: intent.customer,
        offSession: form.get('off_session') === 'true',
        status: card.declines ? 'declined' : 'succeeded',
      });
      if (card.declines) {
        return {
          status: 402,
          body: {
            error: {
              type: 'card_error',
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
              payment_intent: intent,
            },
          },
        };
      }
      return { status: 200, body: intent };
    }
    return {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } },
    };
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key });
      let reply: { status: number; body: unknown };
      // Stripe's idempotency: the same key gets the first answer again, and nothing happens twice.
      const stored = key && req.method === 'POST' ? replies.get(`${url.pathname} ${key}`) : undefined;
      if (stored) {
        reply = stored;
      } else {
        const chargesBefore = charges.length;
        reply = handle(req.method ?? 'GET', url.pathname, form);
        if (charges.length > chargesBefore && key) charges[charges.length - 1]!.idempotencyKey = key;
        if (key && req.method === 'POST') replies.set(`${url.pathname} ${key}`, reply);
      }
      const answer = () => {
        res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(reply.body));
      };
      if (options.latencyMs) setTimeout(answer, options.latencyMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Signs a payload as Stripe signs webhook events. */
  const sign = (payload: string, secret = options.webhookSecret) => {
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
    return `t=${timestamp},v1=${signature}`;
  };

  return {
    url: baseUrl,
    charges,
    requests,
    sign,
    /**
     * The customer completes a setup-mode Checkout Session with `paymentMethod`: the session gets
     * its SetupIntent, and the signed checkout.session.completed event is built (not yet sent).
     */
    completeCheckout(sessionId: string, paymentMethod: string) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      const intent = { id: id('seti'), payment_method: paymentMethod };
      setupIntents.set(intent.id, intent);
      Object.assign(session, { setup_intent: intent.id, status: 'complete' });
      const payload = JSON.stringify({
        id: id('evt'),
        object: 'event',
        api_version: '2025-01-27.acacia',
        created: Math.floor(Date.now() / 1000),
        type: 'checkout.session.completed',
        data: { object: session },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      });
      return { payload, signature: sign(payload) };
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
