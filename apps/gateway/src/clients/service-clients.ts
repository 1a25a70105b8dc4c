import { createGrpcClient, type GrpcClient } from '@billing/grpc';
import {
  accountsV1,
  analyticsV1,
  catalogV1,
  contractsV1,
  exportsV1,
  invoicingV1,
  paymentsV1,
  selfServiceV1,
  subscriptionsV1,
  webhooksV1,
} from '@billing/proto';

/** Where each backing service listens (host:port). */
export interface ServiceAddresses {
  accounts: string;
  subscriptions: string;
  invoicing: string;
  analytics: string;
  payments: string;
}

/** The services that export lists, each serving ExportService for its own jobs (docs/architecture.md "Exports"). */
export const EXPORTING_SERVICES = ['accounts', 'subscriptions', 'invoicing', 'analytics'] as const;
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
  webhooks: GrpcClient<typeof webhooksV1.WebhookServiceService>;
  exports: Record<ExportingService, ExportClient>;
  activities: GrpcClient<typeof analyticsV1.ActivityServiceService>;
  mrrReports: GrpcClient<typeof analyticsV1.MrrReportServiceService>;
  payments: GrpcClient<typeof paymentsV1.PaymentsServiceService>;
  selfService: GrpcClient<typeof selfServiceV1.SelfServiceServiceService>;
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
  const webhooks = createGrpcClient(webhooksV1.WebhookServiceClient, addresses.accounts, { defaultDeadlineMs });
  const exportClient = (address: string) =>
    createGrpcClient(exportsV1.ExportServiceClient, address, { defaultDeadlineMs });
  const exports: Record<ExportingService, ExportClient> = {
    accounts: exportClient(addresses.accounts),
    subscriptions: exportClient(addresses.subscriptions),
    invoicing: exportClient(addresses.invoicing),
    analytics: exportClient(addresses.analytics),
  };
  const activities = createGrpcClient(analyticsV1.ActivityServiceClient, addresses.analytics, { defaultDeadlineMs });
  const mrrReports = createGrpcClient(analyticsV1.MrrReportServiceClient, addresses.analytics, { defaultDeadlineMs });
  const payments = createGrpcClient(paymentsV1.PaymentsServiceClient, addresses.payments, { defaultDeadlineMs });
  const selfService = createGrpcClient(selfServiceV1.SelfServiceServiceClient, addresses.accounts, {
    defaultDeadlineMs,
  });
  return {
    accounts,
    identity,
    churnReasons,
    organizationData,
    catalog,
    contracts,
    subscriptions,
    invoicing,
    webhooks,
    exports,
    activities,
    mrrReports,
    payments,
    selfService,
    close() {
      accounts.close();
      identity.close();
      churnReasons.close();
      organizationData.close();
      catalog.close();
      contracts.close();
      subscriptions.close();
      invoicing.close();
      webhooks.close();
      for (const client of Object.values(exports)) client.close();
      activities.close();
      mrrReports.close();
      payments.close();
      selfService.close();
    },
  };
}
