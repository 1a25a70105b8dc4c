import { Metadata } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { fromMetadata, MetadataKeys, toMetadata } from './metadata.js';

describe('request context in call metadata', () => {
  it('writes each field under its key, free text percent-encoded', () => {
    const metadata = toMetadata({
      requestId: 'req-1',
      organizationId: '6f1c2a1e-3c5d-4a8b-9a53-0c3f4b1d2e7f',
      apiUserId: 'api-user-7',
      clientSystem: 'ERP 2',
      externalUser: 'jörg',
    });

    expect(metadata.getMap()).toEqual({
      'x-request-id': 'req-1',
      'x-organization-id': '6f1c2a1e-3c5d-4a8b-9a53-0c3f4b1d2e7f',
      'x-api-user-id': 'api-user-7',
      'x-client-system': 'ERP%202',
      'x-user': 'j%C3%B6rg',
    });
  });

  it('leaves out absent and empty fields', () => {
    expect(toMetadata({ requestId: 'req-1', organizationId: '', externalUser: undefined }).getMap()).toEqual({
      'x-request-id': 'req-1',
    });
  });

  it('reads back what it wrote', () => {
    const context = {
      requestId: 'req-1',
      organizationId: 'org-1',
      apiUserId: 'api-user-7',
      clientSystem: 'ERP Système / 2%',
      externalUser: 'jörg.müller@example.com',
    };

    expect(fromMetadata(toMetadata(context))).toEqual(context);
  });

  it('keeps a value that is not valid percent-encoding as sent', () => {
    const metadata = new Metadata();
    metadata.set(MetadataKeys.requestId, 'req-1');
    metadata.set(MetadataKeys.externalUser, '100% sure');

    expect(fromMetadata(metadata)).toEqual({ requestId: 'req-1', externalUser: '100% sure' });
  });

  it('replaces a missing or unsafe request id with a new one', () => {
    const unsafe = new Metadata();
    unsafe.set(MetadataKeys.requestId, 'req 1; DROP TABLE');

    expect(fromMetadata(new Metadata()).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fromMetadata(unsafe).requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
