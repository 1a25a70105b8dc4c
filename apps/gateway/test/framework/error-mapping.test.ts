import { AppError, StatusCode } from '@billing/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHttpError } from '../../src/http/index.js';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

const W1 = '11111111-1111-4111-8111-111111111111';
const failure = (kind: string) => `/api/v1/widgets/failures/${kind}/`;

describe('errors from services (AppError) over HTTP', () => {
  let app: WidgetApp;

  beforeAll(async () => {
    app = await startWidgetApp();
    app.store.add({ uuid: W1, name: 'sleepy', active: false });
  });
  afterAll(() => app.close());

  it('turns field violations into the DRF shape: dotted paths nest, "" and non_field_errors go to the top', async () => {
    const response = await app.request('GET', failure('violations'));

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      legal_country: ['"XX" is not a valid choice.'],
      address: { city: ['This field may not be blank.'], non_field_errors: ['Address is incomplete.'] },
      non_field_errors: ['Either code or uuid is required.', 'Something else too.'],
    });
  });

  it('renders violations on items of a list body as a DRF list', async () => {
    const response = await app.request('POST', `/api/v1/widgets/${W1}/gateways/`, {
      body: [
        { payment_gateway: 'noop', payment_gateway_account_id: 'same' },
        { payment_gateway: 'cardgw_a', payment_gateway_account_id: 'same' },
      ],
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual([{}, { payment_gateway_account_id: ['Duplicate account id.'] }]);
  });

  it('answers ALREADY_EXISTS with violations in the field shape', async () => {
    const response = await app.request('GET', failure('already-exists'));

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: ['account with this code already exists.'] });
  });

  it('answers INVALID_ARGUMENT without violations as a refusal', async () => {
    const response = await app.request('GET', failure('invalid-no-fields'));

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: 'The request makes no sense.' });
  });

  it('answers a refused business rule 400 {"detail"}', async () => {
    const response = await app.request('GET', failure('refused'));

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: 'Subscription is expired.' });
  });

  it('uses {"error"} for refusals on routes that ask for it', async () => {
    const response = await app.request('POST', `/api/v1/widgets/${W1}/polish/`);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Inactive widgets cannot be polished.' });
  });

  it('answers NOT_FOUND with the fixed body, never the service message', async () => {
    const response = await app.request('GET', failure('not-found'));

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not found.' });
  });

  it('answers UNAUTHENTICATED from a service as an invalid token', async () => {
    const response = await app.request('GET', failure('unauthenticated'));

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid token.' });
    expect(response.headers.get('www-authenticate')).toBe('Token');
  });

  it('answers PERMISSION_DENIED 403 with DRF wording', async () => {
    const response = await app.request('GET', failure('permission-denied'));

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it('answers RESOURCE_EXHAUSTED 429 and ABORTED 409 with the message', async () => {
    const exhausted = await app.request('GET', failure('exhausted'));
    const aborted = await app.request('GET', failure('aborted'));

    expect(exhausted.status).toBe(429);
    expect(exhausted.body).toEqual({ detail: 'Quota used up.' });
    expect(aborted.status).toBe(409);
    expect(aborted.body).toEqual({ detail: 'Changed meanwhile.' });
  });

  it.each(['unavailable', 'deadline'])('answers %s 503 with the request id', async (kind) => {
    const response = await app.request('GET', failure(kind), { headers: { 'X-Request-ID': `req-${kind}` } });

    expect(response.status).toBe(503);
    expect(response.body).toEqual({ detail: 'Service temporarily unavailable.', request_id: `req-${kind}` });
  });

  it.each(['internal', 'plain'])(
    'answers %s 500 with the request id, logs the stack and echoes nothing',
    async (kind) => {
      const response = await app.request('GET', failure(kind), { headers: { 'X-Request-ID': `req-${kind}` } });

      expect(response.status).toBe(500);
      expect(response.body).toEqual({ detail: 'Internal server error.', request_id: `req-${kind}` });
      expect(response.text).not.toMatch(/hunter2|secret|stack/);
      const logged = app.logger.entries.filter((entry) => entry.message === 'request failed').at(-1);
      expect(logged?.level).toBe('error');
      expect((logged?.fields.err as Error | undefined)?.stack).toContain('widget-routes.ts');
    },
  );
});

describe('toHttpError', () => {
  const options = { requestId: 'r-1', refusalBodyKey: 'detail' as const, input: undefined };

  it('maps codes not named by the contract to 500', () => {
    for (const code of [StatusCode.UNKNOWN, StatusCode.UNIMPLEMENTED, StatusCode.DATA_LOSS, StatusCode.CANCELLED]) {
      const error = toHttpError(new AppError({ code, reason: 'X', message: 'x' }), options);
      expect([error.status, error.body]).toEqual([500, { detail: 'Internal server error.', request_id: 'r-1' }]);
    }
  });

  it('renders numeric path segments as object keys when the input is not a list', () => {
    const error = toHttpError(AppError.invalidField('tiers.1.discount', 'Too much.'), options);

    expect(error.body).toEqual({ tiers: { '1': { discount: ['Too much.'] } } });
  });

  it('renders numeric path segments as a DRF list when the input holds a list there', () => {
    const error = toHttpError(AppError.invalidField('tiers.1.discount', 'Too much.'), {
      ...options,
      input: { tiers: [{ discount: '1' }, { discount: '200' }] },
    });

    expect(error.body).toEqual({ tiers: [{}, { discount: ['Too much.'] }] });
  });
});
