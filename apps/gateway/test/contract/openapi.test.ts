import { describe, expect, it } from 'vitest';
import { newOrganization, usePlatform } from './helpers.js';

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

  it('lists each hyphen/underscore twin once, in its hyphen form; the underscore form still answers', async () => {
    const document = (await (await fetch(`${platform().baseUrl}/api/schema/`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const paths = Object.keys(document.paths);
    const word = (path: string) => path.replaceAll('_', '-');
    const twins = paths.filter((path) => paths.some((other) => other !== path && word(other) === word(path)));
    const operationIds = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );

    expect(twins).toEqual([]);
    expect(operationIds.filter((id) => /Alias\d*$/.test(id))).toEqual([]);
    expect(new Set(operationIds).size).toBe(operationIds.length);
    expect(document.paths['/api/v1/accounts/{code}/generate-invoice/']?.post?.operationId).toBe(
      'generateAccountInvoice',
    );
    expect(document.paths['/api/v1/churn-reasons/']?.post?.operationId).toBe('createChurnReason');
    for (const underscore of [
      '/api/v1/accounts/{code}/payment_gateways/',
      '/api/v1/accounts/{code}/generate_invoice/',
      '/api/v1/churn_reasons/',
      '/api/v1/invoices/{uuid}/register_payment/',
    ]) {
      expect(paths).not.toContain(underscore);
    }
    const { api } = await newOrganization(platform());
    expect((await api.get('/api/v1/churn_reasons/')).status).toBe(200);
  });

  it('serves the interactive console, which keeps the authorization across reloads', async () => {
    const response = await fetch(`${platform().baseUrl}/api/docs/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('swagger-ui');
    const script = await (await fetch(`${platform().baseUrl}/api/docs/swagger-ui-init.js`)).text();
    expect(script).toContain('"persistAuthorization": true');
    expect(script).toContain('"requestInterceptor": function addTokenKeyword(');
  });
});
