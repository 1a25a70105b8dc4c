// In @billing/rest-representation: webhook deliveries show invoices exactly as the API does.
export {
  type AccountsByUuid,
  type DetailExtras,
  decimalToNumber,
  type InvoiceEmbeds,
  presentInvoice,
  presentInvoiceLine,
  presentInvoiceListItem,
  presentKickback,
  presentVatBillingPeriod,
  shownKickbackStatus,
} from '@billing/rest-representation';
