import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  accountInput,
  accountPath,
  gatewaysPath,
  newOrganization,
  RECIPIENTS,
  uniqueCode,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

/** The admin command line's entry for creating the organization (it has no API user or request). */
const organizationCreated = (organizationId: string) => ({
  organization_id: organizationId,
  api_user_id: null,
  client_system: 'admin-cli',
  external_user: null,
  request_id: null,
  action: 'organization.create',
  object_type: 'organization',
  object_id: organizationId,
});

describe('audit log and request tracing', () => {
  it('records every write with organization, API user, X-Client-System, X-User, request id, action and object', async () => {
    const org = await newOrganization(platform());
    const code = uniqueCode('audit');
    // One write per second of platform time, so the log's order is the order of the writes.
    const as = (requestId: string) => {
      platform().clock.advanceSeconds(1);
      return { headers: { 'X-User': 'jörg@example.com', 'X-Request-ID': requestId } };
    };

    const created = await org.api.post(ACCOUNTS, accountInput(code), as('req-create'));
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe('req-create');
    const account = created.body.uuid as string;
    expect((await org.api.patch(accountPath(code), { invoice_note: 'Net 14' }, as('req-patch'))).status).toBe(200);
    const recipient = await org.api.post(
      RECIPIENTS,
      { account, name: 'Ada', email: 'ada@example.com' },
      as('req-recipient'),
    );
    expect(recipient.status).toBe(201);
    const gateways = [{ payment_gateway: 'noop', payment_gateway_account_id: 'gw-1' }];
    expect((await org.api.post(gatewaysPath(code), gateways, as('req-gateways'))).status).toBe(200);
    expect((await org.api.delete(accountPath(code), as('req-delete'))).status).toBe(204);

    const who = {
      organization_id: org.organizationId,
      api_user_id: org.apiUserId,
      client_system: 'contract-tests',
      external_user: 'jörg@example.com',
    };
    expect(await platform().auditLog(org.organizationId)).toEqual([
      organizationCreated(org.organizationId),
      { ...who, request_id: 'req-create', action: 'account.create', object_type: 'account', object_id: account },
      { ...who, request_id: 'req-patch', action: 'account.update', object_type: 'account', object_id: account },
      {
        ...who,
        request_id: 'req-recipient',
        action: 'recipient.create',
        object_type: 'recipient',
        object_id: recipient.body.uuid,
      },
      {
        ...who,
        request_id: 'req-gateways',
        action: 'account.set_payment_gateways',
        object_type: 'account',
        object_id: account,
      },
      { ...who, request_id: 'req-delete', action: 'account.delete', object_type: 'account', object_id: account },
    ]);
  });

  it('records nothing for reads and refused writes', async () => {
    const org = await newOrganization(platform());
    const code = uniqueCode('audit');
    expect((await org.api.post(ACCOUNTS, { code })).status).toBe(400);
    expect((await org.api.get(ACCOUNTS)).status).toBe(200);
    expect((await org.api.get(accountPath(code))).status).toBe(404);
    expect(await platform().auditLog(org.organizationId)).toEqual([organizationCreated(org.organizationId)]);
  });

  it('carries the request id from the REST call through gRPC into the events it caused', async () => {
    const org = await newOrganization(platform());
    const code = uniqueCode('trace');
    const created = await org.api.post(ACCOUNTS, accountInput(code), { headers: { 'X-Request-ID': 'trace-create' } });
    await org.api.patch(accountPath(code), { language: 'da' }, { headers: { 'X-Request-ID': 'trace-update' } });

    const mine = (await platform().eventRequestIds()).filter((event) => event.aggregate_id === created.body.uuid);
    expect(mine).toEqual([
      { event_type: 'account.created', aggregate_id: created.body.uuid, request_id: 'trace-create' },
      { event_type: 'account.updated', aggregate_id: created.body.uuid, request_id: 'trace-update' },
    ]);
  });

  it('makes up a request id when the client sends none or an unusable one', async () => {
    const org = await newOrganization(platform());
    const none = await org.api.get(ACCOUNTS);
    const unusable = await org.api.get(ACCOUNTS, { headers: { 'X-Request-ID': 'has spaces' } });
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(unusable.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
