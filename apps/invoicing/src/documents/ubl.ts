import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import {
  BIS_CUSTOMIZATION_ID,
  BIS_PROFILE_ID,
  type EinvoiceDocument,
  type EParty,
} from '../domain/einvoice/einvoice-document.js';

const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const ROOT_NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
} as const;

/**
 * The UBL 2.1 XML of an e-invoice (Peppol BIS Billing 3.0), its elements in the order the UBL
 * schema requires (an Invoice and a CreditNote differ: the credit note has no DueDate or
 * ProjectReference, its lines are CreditNoteLine with CreditedQuantity).
 */
export function renderUbl(document: EinvoiceDocument): string {
  const credit = document.kind === 'CreditNote';
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(ROOT_NS[document.kind], document.kind, {
    'xmlns:cac': CAC,
    'xmlns:cbc': CBC,
  });
  const cbc = (parent: XMLBuilder, name: string, value: string, attributes?: Record<string, string>) =>
    parent.ele(CBC, `cbc:${name}`, attributes).txt(value).up();
  const cac = (parent: XMLBuilder, name: string) => parent.ele(CAC, `cac:${name}`);
  const money = (parent: XMLBuilder, name: string, value: string) =>
    cbc(parent, name, value, { currencyID: document.currency });

  cbc(root, 'CustomizationID', BIS_CUSTOMIZATION_ID);
  cbc(root, 'ProfileID', BIS_PROFILE_ID);
  cbc(root, 'ID', document.id);
  cbc(root, 'IssueDate', document.issue_date);
  if (!credit && document.due_date !== null) cbc(root, 'DueDate', document.due_date);
  cbc(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode', document.type_code);
  if (document.note !== null) cbc(root, 'Note', document.note);
  cbc(root, 'DocumentCurrencyCode', document.currency);
  if (document.accounting_cost !== null) cbc(root, 'AccountingCost', document.accounting_cost);
  if (document.buyer_reference !== '') cbc(root, 'BuyerReference', document.buyer_reference);
  if (document.period !== null) {
    const period = cac(root, 'InvoicePeriod');
    cbc(period, 'StartDate', document.period.start);
    cbc(period, 'EndDate', document.period.end);
  }
  if (document.order_reference !== null) cbc(cac(root, 'OrderReference'), 'ID', document.order_reference);
  if (document.billing_reference !== null) {
    cbc(cac(cac(root, 'BillingReference'), 'InvoiceDocumentReference'), 'ID', document.billing_reference);
  }
  if (document.contract_reference !== null) {
    cbc(cac(root, 'ContractDocumentReference'), 'ID', document.contract_reference);
  }
  if (document.project_reference !== null) {
    if (credit) {
      // A CreditNote has no ProjectReference: BIS carries BT-11 as a document reference of type 50.
      const reference = cac(root, 'AdditionalDocumentReference');
      cbc(reference, 'ID', document.project_reference);
      cbc(reference, 'DocumentTypeCode', '50');
    } else {
      cbc(cac(root, 'ProjectReference'), 'ID', document.project_reference);
    }
  }
  partyElement(cac(root, 'AccountingSupplierParty'), document.seller, cbc, cac);
  partyElement(cac(root, 'AccountingCustomerParty'), document.buyer, cbc, cac);
  if (document.delivery_country !== null) {
    const address = cac(cac(cac(root, 'Delivery'), 'DeliveryLocation'), 'Address');
    cbc(cac(address, 'Country'), 'IdentificationCode', document.delivery_country);
  }
  if (document.payment !== null) {
    const means = cac(root, 'PaymentMeans');
    cbc(means, 'PaymentMeansCode', document.payment.means_code);
    cbc(means, 'PaymentID', document.payment.payment_id);
    const account = cac(means, 'PayeeFinancialAccount');
    cbc(account, 'ID', document.payment.account);
    if (document.payment.bic !== null) cbc(cac(account, 'FinancialInstitutionBranch'), 'ID', document.payment.bic);
  }
  cbc(cac(root, 'PaymentTerms'), 'Note', document.payment_terms);

  const taxTotal = cac(root, 'TaxTotal');
  money(taxTotal, 'TaxAmount', document.tax_total);
  for (const subtotal of document.subtotals) {
    const element = cac(taxTotal, 'TaxSubtotal');
    money(element, 'TaxableAmount', subtotal.taxable);
    money(element, 'TaxAmount', subtotal.tax);
    const category = cac(element, 'TaxCategory');
    cbc(category, 'ID', subtotal.category);
    if (subtotal.percent !== null) cbc(category, 'Percent', subtotal.percent);
    if (subtotal.exemption_code !== null) cbc(category, 'TaxExemptionReasonCode', subtotal.exemption_code);
    if (subtotal.exemption_reason !== null) cbc(category, 'TaxExemptionReason', subtotal.exemption_reason);
    cbc(cac(category, 'TaxScheme'), 'ID', 'VAT');
  }
  const totals = cac(root, 'LegalMonetaryTotal');
  money(totals, 'LineExtensionAmount', document.totals.line_extension);
  money(totals, 'TaxExclusiveAmount', document.totals.tax_exclusive);
  money(totals, 'TaxInclusiveAmount', document.totals.tax_inclusive);
  money(totals, 'PayableAmount', document.totals.payable);

  for (const line of document.lines) {
    const element = cac(root, credit ? 'CreditNoteLine' : 'InvoiceLine');
    cbc(element, 'ID', line.id);
    cbc(element, credit ? 'CreditedQuantity' : 'InvoicedQuantity', line.quantity, { unitCode: line.unit_code });
    money(element, 'LineExtensionAmount', line.amount);
    if (line.period !== null) {
      const period = cac(element, 'InvoicePeriod');
      cbc(period, 'StartDate', line.period.start);
      cbc(period, 'EndDate', line.period.end);
    }
    const item = cac(element, 'Item');
    cbc(item, 'Name', line.name);
    if (line.sku !== '') cbc(cac(item, 'SellersItemIdentification'), 'ID', line.sku);
    const category = cac(item, 'ClassifiedTaxCategory');
    cbc(category, 'ID', line.category);
    if (line.percent !== null) cbc(category, 'Percent', line.percent);
    cbc(cac(category, 'TaxScheme'), 'ID', 'VAT');
    money(cac(element, 'Price'), 'PriceAmount', line.price);
  }
  return root.end({ prettyPrint: true });
}

type Cbc = (parent: XMLBuilder, name: string, value: string, attributes?: Record<string, string>) => XMLBuilder;
type Cac = (parent: XMLBuilder, name: string) => XMLBuilder;

function partyElement(wrapper: XMLBuilder, data: EParty, cbc: Cbc, cac: Cac): void {
  const party = cac(wrapper, 'Party');
  cbc(party, 'EndpointID', data.endpoint.id, { schemeID: data.endpoint.scheme });
  const address = cac(party, 'PostalAddress');
  if (data.street !== '') cbc(address, 'StreetName', data.street);
  if (data.city !== '') cbc(address, 'CityName', data.city);
  if (data.zipcode !== '') cbc(address, 'PostalZone', data.zipcode);
  cbc(cac(address, 'Country'), 'IdentificationCode', data.country);
  if (data.vat_id !== null) {
    const scheme = cac(party, 'PartyTaxScheme');
    cbc(scheme, 'CompanyID', data.vat_id);
    cbc(cac(scheme, 'TaxScheme'), 'ID', 'VAT');
  }
  const legal = cac(party, 'PartyLegalEntity');
  cbc(legal, 'RegistrationName', data.name);
  if (data.company_id !== null) cbc(legal, 'CompanyID', data.company_id.id, { schemeID: data.company_id.scheme });
  if (data.contact_name !== '' || data.email !== '') {
    const contact = cac(party, 'Contact');
    if (data.contact_name !== '') cbc(contact, 'Name', data.contact_name);
    if (data.email !== '') cbc(contact, 'ElectronicMail', data.email);
  }
}
