import { createGrpcClient, type GrpcClient } from '@billing/grpc';
import { accountsV1 } from '@billing/proto';

/** Where each backing service listens (host:port). */
export interface ServiceAddresses {
  accounts: string;
}

/** The gateway's only way to data: one gRPC client per service. */
export interface ServiceClients {
  accounts: GrpcClient<typeof accountsV1.AccountsServiceService>;
  identity: GrpcClient<typeof accountsV1.IdentityServiceService>;
  close(): void;
}

export function connectServiceClients(addresses: ServiceAddresses, defaultDeadlineMs = 5_000): ServiceClients {
  const accounts = createGrpcClient(accountsV1.AccountsServiceClient, addresses.accounts, { defaultDeadlineMs });
  const identity = createGrpcClient(accountsV1.IdentityServiceClient, addresses.accounts, { defaultDeadlineMs });
  return {
    accounts,
    identity,
    close() {
      accounts.close();
      identity.close();
    },
  };
}
