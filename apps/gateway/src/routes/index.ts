import type { ServiceClients } from '../clients/service-clients.js';
import type { Route } from '../http/index.js';
import { accountInvoiceRoutes } from './accounts/account-invoice-routes.js';
import { accountRoutes } from './accounts/account-routes.js';
import { paymentGatewayRoutes } from './accounts/payment-gateway-routes.js';
import { activityRoutes } from './activities/activity-routes.js';
import { catalogRoutes } from './catalog/catalog-routes.js';
import { planCalculateRoutes } from './catalog/plan-calculate-routes.js';
import { churnReasonRoutes } from './churn-reasons/churn-reason-routes.js';
import { contractRoutes } from './contracts/contract-routes.js';
import { draftLineRoutes } from './draft-invoice-lines/draft-line-routes.js';
import { exportRoutes } from './exports/export-routes.js';
import { invoiceActionRoutes } from './invoices/invoice-action-routes.js';
import { invoiceLineRoutes } from './invoices/invoice-line-routes.js';
import { invoiceRoutes } from './invoices/invoice-routes.js';
import { importedDataRoutes } from './organization/imported-data-routes.js';
import { memberRoutes } from './organization/member-routes.js';
import { cardRegistrationRoutes } from './payment-cards/card-registration-routes.js';
import { paymentCardRoutes } from './payment-cards/payment-card-routes.js';
import { recipientRoutes } from './recipients/recipient-routes.js';
import { selfServiceRoutes } from './self-service/self-service-routes.js';
import { mrrReportRoutes } from './subscriptions/mrr-report-routes.js';
import { subscriptionRoutes } from './subscriptions/subscription-routes.js';
import { testClockRoutes } from './test-clock/test-clock-routes.js';
import { webhookRoutes } from './webhooks/webhook-routes.js';

/** Every REST operation the gateway serves. */
export function allRoutes(clients: ServiceClients): Route[] {
  return [
    // Before the lists' detail routes: /invoices/export/ is not an invoice's uuid.
    ...exportRoutes(clients),
    ...accountRoutes(clients),
    ...paymentGatewayRoutes(clients),
    ...recipientRoutes(clients),
    ...catalogRoutes(clients),
    ...planCalculateRoutes(clients),
    ...contractRoutes(clients),
    ...churnReasonRoutes(clients),
    ...testClockRoutes(clients),
    ...mrrReportRoutes(clients),
    ...subscriptionRoutes(clients),
    ...invoiceRoutes(clients),
    ...invoiceActionRoutes(clients),
    ...invoiceLineRoutes(clients),
    ...draftLineRoutes(clients),
    ...accountInvoiceRoutes(clients),
    ...webhookRoutes(clients),
    ...memberRoutes(clients),
    ...importedDataRoutes(clients),
    ...activityRoutes(clients),
    ...paymentCardRoutes(clients),
    ...cardRegistrationRoutes(clients),
    ...selfServiceRoutes(clients),
  ];
}
