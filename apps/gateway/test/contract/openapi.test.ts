import { describe, expect, it } from 'vitest';
import { usePlatform } from './helpers.js';

const platform = usePlatform();

describe('API description', () => {
  it('serves the OpenAPI 3.1 document of every accounts and catalog operation, without a token', async () => {
    const response = await fetch(`${platform().baseUrl}/api/schema/`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /api/v1/accounts/ listAccounts',
        'POST /api/v1/accounts/ createAccount',
        'GET /api/v1/accounts/{code}/ getAccount',
        'PUT /api/v1/accounts/{code}/ replaceAccount',
        'PATCH /api/v1/accounts/{code}/ updateAccount',
        'DELETE /api/v1/accounts/{code}/ deleteAccount',
        'GET /api/v1/accounts/{code}/payment-gateways/ listPaymentGatewayAccounts',
        'POST /api/v1/accounts/{code}/payment-gateways/ setPaymentGatewayAccounts',
        'GET /api/v1/recipients/ listRecipients',
        'POST /api/v1/recipients/ createRecipient',
        'GET /api/v1/recipients/{uuid}/ getRecipient',
        'PUT /api/v1/recipients/{uuid}/ replaceRecipient',
        'PATCH /api/v1/recipients/{uuid}/ updateRecipient',
        'DELETE /api/v1/recipients/{uuid}/ deleteRecipient',
        'GET /api/v1/plans/ listPlans',
        'POST /api/v1/plans/ createPlan',
        'GET /api/v1/plans/{uuid}/ getPlan',
        'PUT /api/v1/plans/{uuid}/ replacePlan',
        'PATCH /api/v1/plans/{uuid}/ updatePlan',
        'GET /api/v1/planterms/ listPlanTerms',
        'POST /api/v1/planterms/ createPlanTerms',
        'GET /api/v1/planterms/{uuid}/ getPlanTerms',
        'PATCH /api/v1/planterms/{uuid}/ updatePlanTerms',
        'DELETE /api/v1/planterms/{uuid}/ deletePlanTerms',
      ]),
    );
  });

  it('documents the account body from the same schema that validates it', async () => {
    const document = (await (await fetch(`${platform().baseUrl}/api/schema/`)).json()) as {
      paths: Record<
        string,
        {
          post?: {
            requestBody?: {
              content: Record<
                string,
                { schema: { required?: string[]; properties?: Record<string, { maxLength?: number }> } }
              >;
            };
          };
        }
      >;
    };
    const body = document.paths['/api/v1/accounts/']?.post?.requestBody?.content['application/json']?.schema;
    expect(body?.required?.sort()).toEqual(['code', 'legal_address', 'legal_city', 'legal_country', 'legal_zipcode']);
    expect(body?.properties?.code?.maxLength).toBe(128);
  });

  it('serves the interactive console', async () => {
    const response = await fetch(`${platform().baseUrl}/api/docs/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('swagger-ui');
  });
});
