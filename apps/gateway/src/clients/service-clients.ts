import { createGrpcClient, type GrpcClient } from '@billing/grpc';
import { accountsV1, catalogV1, contractsV1, invoicingV1, paymentsV1, subscriptionsV1 } from '@billing/proto';

/** Where each backing service listens (host:port). */
export interface ServiceAddresses {
  accounts: string;
  subscriptions: string;
  invoicing: string;
  payments: string;
}

/** The gateway's only way to data: one gRPC client per service. */
export interface ServiceClients {
  accounts: GrpcClient<typeof accountsV1.AccountsServiceService>;
  identity: GrpcClient<typeof accountsV1.IdentityServiceService>;
  churnReasons: GrpcClient<typeof accountsV1.ChurnReasonServiceService>;
  catalog: GrpcClient<typeof catalogV1.CatalogServiceService>;
  contracts: GrpcClient<typeof contractsV1.ContractServiceService>;
  subscriptions: GrpcClient<typeof subscriptionsV1.SubscriptionServiceService>;
  invoicing: GrpcClient<typeof invoicingV1.InvoicingServiceService>;
  payments: GrpcClient<typeof paymentsV1.PaymentsServiceService>;
  close(): void;
}

export function connectServiceClients(addresses: ServiceAddresses, defaultDeadlineMs = 5_000): ServiceClients {
  const accounts = createGrpcClient(accountsV1.AccountsServiceClient, addresses.accounts, { defaultDeadlineMs });
  const identity = createGrpcClient(accountsV1.IdentityServiceClient, addresses.accounts, { defaultDeadlineMs });
  const churnReasons = createGrpcClient(accountsV1.ChurnReasonServiceClient, addresses.accounts, { defaultDeadlineMs });
  const catalog = createGrpcClient(catalogV1.CatalogServiceClient, addresses.subscriptions, { defaultDeadlineMs });
  const contracts = createGrpcClient(contractsV1.ContractServiceClient, addresses.subscriptions, { defaultDeadlineMs });
  const subscriptions = createGrpcClient(subscriptionsV1.SubscriptionServiceClient, addresses.subscriptions, {
    defaultDeadlineMs,
  });
  const invoicing = createGrpcClient(invoicingV1.InvoicingServiceClient, addresses.invoicing, { defaultDeadlineMs });
  const payments = createGrpcClient(paymentsV1.PaymentsServiceClient, addresses.payments, { defaultDeadlineMs });
  return {
    accounts,
    identity,
    churnReasons,
    catalog,
    contracts,
    subscriptions,
    invoicing,
    payments,
    close() {
      accounts.close();
      identity.close();
      churnReasons.close();
      catalog.close();
      contracts.close();
      subscriptions.close();
      invoicing.close();
      payments.close();
    },
  };
}
