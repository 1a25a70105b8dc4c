import { createGrpcClient, type GrpcClient } from '@billing/grpc';
import { accountsV1, catalogV1, contractsV1, exportsV1, invoicingV1, subscriptionsV1 } from '@billing/proto';

/** Where each backing service listens (host:port). */
export interface ServiceAddresses {
  accounts: string;
  subscriptions: string;
  invoicing: string;
}

/** The services that export lists, each serving ExportService for its own jobs (docs/architecture.md "Exports"). */
export const EXPORTING_SERVICES = ['accounts', 'subscriptions', 'invoicing'] as const;
export type ExportingService = (typeof EXPORTING_SERVICES)[number];
export type ExportClient = GrpcClient<typeof exportsV1.ExportServiceService>;

/** The gateway's only way to data: one gRPC client per service. */
export interface ServiceClients {
  accounts: GrpcClient<typeof accountsV1.AccountsServiceService>;
  identity: GrpcClient<typeof accountsV1.IdentityServiceService>;
  churnReasons: GrpcClient<typeof accountsV1.ChurnReasonServiceService>;
  organizationData: GrpcClient<typeof accountsV1.OrganizationDataServiceService>;
  catalog: GrpcClient<typeof catalogV1.CatalogServiceService>;
  contracts: GrpcClient<typeof contractsV1.ContractServiceService>;
  subscriptions: GrpcClient<typeof subscriptionsV1.SubscriptionServiceService>;
  invoicing: GrpcClient<typeof invoicingV1.InvoicingServiceService>;
  exports: Record<ExportingService, ExportClient>;
  close(): void;
}

export function connectServiceClients(addresses: ServiceAddresses, defaultDeadlineMs = 5_000): ServiceClients {
  const accounts = createGrpcClient(accountsV1.AccountsServiceClient, addresses.accounts, { defaultDeadlineMs });
  const identity = createGrpcClient(accountsV1.IdentityServiceClient, addresses.accounts, { defaultDeadlineMs });
  const churnReasons = createGrpcClient(accountsV1.ChurnReasonServiceClient, addresses.accounts, { defaultDeadlineMs });
  const organizationData = createGrpcClient(accountsV1.OrganizationDataServiceClient, addresses.accounts, {
    defaultDeadlineMs,
  });
  const catalog = createGrpcClient(catalogV1.CatalogServiceClient, addresses.subscriptions, { defaultDeadlineMs });
  const contracts = createGrpcClient(contractsV1.ContractServiceClient, addresses.subscriptions, { defaultDeadlineMs });
  const subscriptions = createGrpcClient(subscriptionsV1.SubscriptionServiceClient, addresses.subscriptions, {
    defaultDeadlineMs,
  });
  const invoicing = createGrpcClient(invoicingV1.InvoicingServiceClient, addresses.invoicing, { defaultDeadlineMs });
  const exportClient = (address: string) =>
    createGrpcClient(exportsV1.ExportServiceClient, address, { defaultDeadlineMs });
  const exports: Record<ExportingService, ExportClient> = {
    accounts: exportClient(addresses.accounts),
    subscriptions: exportClient(addresses.subscriptions),
    invoicing: exportClient(addresses.invoicing),
  };
  return {
    accounts,
    identity,
    churnReasons,
    organizationData,
    catalog,
    contracts,
    subscriptions,
    invoicing,
    exports,
    close() {
      accounts.close();
      identity.close();
      churnReasons.close();
      organizationData.close();
      catalog.close();
      contracts.close();
      subscriptions.close();
      invoicing.close();
      for (const client of Object.values(exports)) client.close();
    },
  };
}
