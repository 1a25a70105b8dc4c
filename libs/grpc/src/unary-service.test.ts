import { createLogger } from '@billing/observability';
import { accountsV1, healthV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import type { GrpcLogger } from './grpc-logger.js';
import { type UnaryHandlers, unaryService } from './unary-service.js';

describe('unaryService', () => {
  it('names the service by its full protobuf name and keeps the handlers given', () => {
    const getAccount = async () => ({ account: undefined });

    const service = unaryService(accountsV1.AccountsServiceService, { getAccount });

    expect(service.name).toBe('billing.accounts.v1.AccountsService');
    expect(service.definition).toBe(accountsV1.AccountsServiceService);
    expect(service.implementation).toEqual({ getAccount });
  });

  it('refuses, at startup, a handler for a method the service does not have or that streams', () => {
    const misspelled = { getAcount: async () => ({}) } as UnaryHandlers<typeof accountsV1.AccountsServiceService>;
    const streaming = { watch: async () => ({}) } as UnaryHandlers<typeof healthV1.HealthService>;

    expect(() => unaryService(accountsV1.AccountsServiceService, misspelled)).toThrow(
      new TypeError('billing.accounts.v1.AccountsService has no unary method named "getAcount".'),
    );
    expect(() => unaryService(healthV1.HealthService, streaming)).toThrow(
      new TypeError('grpc.health.v1.Health has no unary method named "watch".'),
    );
  });

  it('accepts the platform logger as its logger', () => {
    const logger: GrpcLogger = createLogger('grpc-test', 'silent');
    expect(typeof logger.info).toBe('function');
  });
});

/** Compiled by the typecheck, never run: tsc fails if any of these handlers is accepted. */
export function handlersTheTypesRefuse(): void {
  unaryService(accountsV1.AccountsServiceService, {
    // @ts-expect-error: the response of GetAccount has no `accounts`.
    getAccount: async () => ({ accounts: [] }),
  });
  unaryService(accountsV1.AccountsServiceService, {
    // @ts-expect-error: DeleteAccountRequest has no `uuid`.
    deleteAccount: async (request) => (request.uuid ? {} : {}),
  });
  unaryService(accountsV1.AccountsServiceService, {
    // @ts-expect-error: there is no such method.
    getAcount: async () => ({}),
  });
  unaryService(healthV1.HealthService, {
    // @ts-expect-error: Watch streams, so it cannot have a unary handler.
    watch: async () => ({ status: 1 }),
  });
}
