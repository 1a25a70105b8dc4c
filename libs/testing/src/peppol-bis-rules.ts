import { Decimal } from 'decimal.js';
import { create } from 'xmlbuilder2';

const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const ROOTS: Record<string, string> = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
};
export const BIS_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const BIS_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** The Electronic Address Scheme code list (Peppol EAS, ISO 6523 ICD values in use). */
export const EAS_CODES = new Set([
  '0002',
  '0007',
  '0009',
  '0037',
  '0060',
  '0088',
  '0096',
  '0097',
  '0106',
  '0130',
  '0135',
  '0142',
  '0151',
  '0183',
  '0184',
  '0188',
  '0190',
  '0191',
  '0192',
  '0193',
  '0195',
  '0196',
  '0198',
  '0199',
  '0200',
  '0201',
  '0202',
  '0204',
  '0208',
  '0209',
  '0210',
  '0211',
  '0212',
  '0213',
  '0215',
  '0216',
  '0218',
  '0221',
  '0230',
  '9901',
  '9910',
  '9913',
  '9914',
  '9915',
  '9918',
  '9919',
  '9920',
  '9922',
  '9923',
  '9924',
  '9925',
  '9926',
  '9927',
  '9928',
  '9929',
  '9930',
  '9931',
  '9932',
  '9933',
  '9934',
  '9935',
  '9936',
  '9937',
  '9938',
  '9939',
  '9940',
  '9941',
  '9942',
  '9943',
  '9944',
  '9945',
  '9946',
  '9947',
  '9948',
  '9949',
  '9950',
  '9951',
  '9952',
  '9953',
  '9957',
  '9959',
]);
/** UNCL 5305 as Peppol BIS restricts it. */
export const VAT_CATEGORIES = new Set(['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M']);
/** UN/ECE Recommendation 20 codes (those for counted units and time a subscription business sends). */
export const REC20_UNIT_CODES = new Set(['C62', 'EA', 'H87', 'XPP', 'DAY', 'WEE', 'MON', 'ANN', 'HUR', 'MIN', 'QAN']);

type El = {
  localName: string;
  namespaceURI: string | null;
  textContent: string | null;
  nodeType: number;
  /** Not `children`: @oozcitak/dom's HTMLCollection there yields every descendant. */
  childNodes: ArrayLike<El>;
  getAttribute(name: string): string | null;
};

const elementsOf = (el: El): El[] => Array.from(el.childNodes).filter((node) => node.nodeType === 1);
const kids = (el: El, ns: string, name: string): El[] =>
  elementsOf(el).filter((child) => child.namespaceURI === ns && child.localName === name);
/** The elements at a path of "cac:X/cbc:Y" steps under `el`. */
export function ublAll(el: El, path: string): El[] {
  let current = [el];
  for (const step of path.split('/')) {
    const [prefix, name] = step.split(':') as [string, string];
    current = current.flatMap((node) => kids(node, prefix === 'cbc' ? CBC : CAC, name));
  }
  return current;
}
export const ublText = (el: El, path: string): string | null => ublAll(el, path)[0]?.textContent ?? null;

/** The root element of a UBL document. */
export function parseUbl(xml: string): El {
  const document = create(xml).node as unknown as { documentElement: El };
  return document.documentElement;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^-?\d+(\.\d{1,2})?$/;

/**
 * The rules of Peppol BIS Billing 3.0 (EN 16931 and the Peppol rules) that a receiver rejects a
 * document for, checked on the XML: required elements, code lists (EAS, UNCL 5305, Rec 20, ISO
 * 4217 form), the VAT breakdown per category and the totals, to the cent. Returns the broken
 * rules, [] for a document that keeps them.
 */
export function bisViolations(xml: string): string[] {
  const errors: string[] = [];
  const fail = (rule: string, message: string) => errors.push(`${rule}: ${message}`);
  const root = parseUbl(xml);
  const kind = root.localName;
  if (ROOTS[kind] === undefined || root.namespaceURI !== ROOTS[kind])
    fail('UBL', `root ${kind} in ${root.namespaceURI}`);
  const credit = kind === 'CreditNote';
  if (ublText(root, 'cbc:CustomizationID') !== BIS_CUSTOMIZATION) fail('BR-01', 'CustomizationID');
  if (ublText(root, 'cbc:ProfileID') !== BIS_PROFILE) fail('PEPPOL-R007', 'ProfileID');
  if (!ublText(root, 'cbc:ID')) fail('BR-02', 'ID');
  const issue = ublText(root, 'cbc:IssueDate') ?? '';
  if (!DATE.test(issue) || Number.isNaN(Date.parse(issue))) fail('BR-03', `IssueDate ${issue}`);
  const due = ublText(root, credit ? 'cac:PaymentMeans/cbc:PaymentDueDate' : 'cbc:DueDate');
  if (due !== null && !DATE.test(due)) fail('BR-DEC', `DueDate ${due}`);
  const type = ublText(root, credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode');
  if (
    credit
      ? type !== '381'
      : !['380', '383', '386', '393', '82', '80', '84', '395', '575', '623', '780'].includes(type ?? '')
  )
    fail('BR-04', `type code ${type}`);
  const currency = ublText(root, 'cbc:DocumentCurrencyCode') ?? '';
  if (!/^[A-Z]{3}$/.test(currency)) fail('BR-05', `currency ${currency}`);
  if (!ublText(root, 'cbc:BuyerReference') && !ublText(root, 'cac:OrderReference/cbc:ID'))
    fail('PEPPOL-EN16931-R003', 'a buyer reference or an order reference');

  for (const [role, path] of [
    ['seller', 'cac:AccountingSupplierParty/cac:Party'],
    ['buyer', 'cac:AccountingCustomerParty/cac:Party'],
  ] as const) {
    const party = ublAll(root, path)[0];
    if (!party) {
      fail('BR-06/07', `${role} party`);
      continue;
    }
    const endpoint = ublAll(party, 'cbc:EndpointID')[0];
    if (!endpoint?.textContent) fail('PEPPOL-EN16931-R010/020', `${role} EndpointID`);
    else if (!EAS_CODES.has(endpoint.getAttribute('schemeID') ?? '')) fail('PEPPOL-EN16931-CL008', `${role} schemeID`);
    else if (endpoint.getAttribute('schemeID') === '0088' && !validGln(endpoint.textContent))
      fail('PEPPOL-COMMON-R040', `${role} GLN check digit`);
    if (!ublText(party, 'cac:PartyLegalEntity/cbc:RegistrationName')) fail('BR-06/07', `${role} name`);
    if (!/^[A-Z]{2}$/.test(ublText(party, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode') ?? ''))
      fail('BR-09/11', `${role} country`);
    for (const scheme of ublAll(party, 'cac:PartyTaxScheme')) {
      if (!/^[A-Z]{2}/.test(ublText(scheme, 'cbc:CompanyID') ?? '')) fail('BR-CO-09', `${role} VAT identifier prefix`);
      if (ublText(scheme, 'cac:TaxScheme/cbc:ID') !== 'VAT') fail('BR-CO-09', `${role} tax scheme`);
    }
  }
  const sellerVat = ublAll(root, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme').length > 0;
  const buyerVat = ublAll(root, 'cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme').length > 0;

  for (const el of [...allElements(root)]) {
    const id = el.getAttribute('currencyID');
    if (id !== null) {
      if (id !== currency) fail('BR-CL-03', `${el.localName} in ${id}`);
      // Prices (BT-146, BT-148) may have more decimals than amounts (BR-DEC covers amounts).
      if (!['PriceAmount', 'BaseAmount'].includes(el.localName) && !AMOUNT.test(el.textContent ?? ''))
        fail('BR-DEC', `${el.localName} ${el.textContent}`);
    }
  }

  const lineName = credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const lines = ublAll(root, lineName);
  if (lines.length === 0) fail('BR-16', 'no line');
  const byCategory = new Map<string, Decimal>();
  let lineSum = new Decimal(0);
  for (const line of lines) {
    const id = ublText(line, 'cbc:ID');
    if (!id) fail('BR-21', 'line ID');
    const quantityEl = ublAll(line, credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity')[0];
    if (!quantityEl) fail('BR-22', `line ${id} quantity`);
    else if (!REC20_UNIT_CODES.has(quantityEl.getAttribute('unitCode') ?? '')) fail('BR-23', `line ${id} unit code`);
    const amount = new Decimal(ublText(line, 'cbc:LineExtensionAmount') ?? 'NaN');
    const price = new Decimal(ublText(line, 'cac:Price/cbc:PriceAmount') ?? 'NaN');
    if (price.isNegative()) fail('BR-27', `line ${id} price`);
    const quantity = new Decimal(quantityEl?.textContent ?? 'NaN');
    if (!quantity.times(price).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).equals(amount))
      fail('PEPPOL-EN16931-R120', `line ${id}: ${quantity} x ${price} is not ${amount}`);
    if (!ublText(line, 'cac:Item/cbc:Name')) fail('BR-25', `line ${id} item name`);
    const category = ublText(line, 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID') ?? '';
    if (!VAT_CATEGORIES.has(category)) fail('BR-CO-04', `line ${id} category ${category}`);
    const percent = ublText(line, 'cac:Item/cac:ClassifiedTaxCategory/cbc:Percent');
    if (category === 'O' ? percent !== null : percent === null) fail(`BR-${category}-05`, `line ${id} percent`);
    const key = `${category}|${percent === null ? '' : new Decimal(percent).toString()}`;
    byCategory.set(key, (byCategory.get(key) ?? new Decimal(0)).plus(amount));
    lineSum = lineSum.plus(amount);
  }

  const taxTotals = ublAll(root, 'cac:TaxTotal');
  if (taxTotals.length !== 1) fail('BR-CO-18', `${taxTotals.length} TaxTotal`);
  const taxTotal = taxTotals[0];
  let taxSum = new Decimal(0);
  const categories = new Set<string>();
  for (const subtotal of taxTotal ? ublAll(taxTotal, 'cac:TaxSubtotal') : []) {
    const category = ublText(subtotal, 'cac:TaxCategory/cbc:ID') ?? '';
    categories.add(category);
    if (!VAT_CATEGORIES.has(category)) fail('BR-CO-04', `category ${category}`);
    if (ublText(subtotal, 'cac:TaxCategory/cac:TaxScheme/cbc:ID') !== 'VAT') fail('BR-47', 'tax scheme');
    const percentText = ublText(subtotal, 'cac:TaxCategory/cbc:Percent');
    const taxable = new Decimal(ublText(subtotal, 'cbc:TaxableAmount') ?? 'NaN');
    const tax = new Decimal(ublText(subtotal, 'cbc:TaxAmount') ?? 'NaN');
    taxSum = taxSum.plus(tax);
    const key = `${category}|${percentText === null ? '' : new Decimal(percentText).toString()}`;
    if (!(byCategory.get(key) ?? new Decimal(0)).equals(taxable))
      fail(`BR-${category}-08`, `taxable ${taxable} is not the sum of its lines ${byCategory.get(key)}`);
    byCategory.delete(key);
    const percent = new Decimal(percentText ?? '0');
    if (category === 'S' && !percent.isPositive()) fail('BR-S-05', 'S with 0%');
    if (['Z', 'E', 'AE', 'K', 'G', 'O'].includes(category) && !(percent.isZero() && tax.isZero()))
      fail(`BR-${category}-06/09`, 'VAT charged');
    if (category === 'O' && percentText !== null) fail('BR-O-05', 'O with a rate');
    if (!taxable.times(percent).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).equals(tax))
      fail(`BR-${category}-09`, `${tax} is not ${percent}% of ${taxable}`);
    const exempt =
      ublText(subtotal, 'cac:TaxCategory/cbc:TaxExemptionReasonCode') ??
      ublText(subtotal, 'cac:TaxCategory/cbc:TaxExemptionReason');
    if (['E', 'AE', 'K', 'G', 'O'].includes(category) && !exempt) fail(`BR-${category}-10`, 'exemption reason');
    if (['S', 'Z'].includes(category) && exempt) fail(`BR-${category}-10`, 'exemption reason on a taxed category');
  }
  for (const key of byCategory.keys()) fail('BR-CO-18', `lines of ${key} without a VAT breakdown`);
  const taxAmount = new Decimal((taxTotal && ublText(taxTotal, 'cbc:TaxAmount')) ?? 'NaN');
  if (!taxAmount.equals(taxSum)) fail('BR-CO-14', `TaxAmount ${taxAmount} is not ${taxSum}`);
  if ([...categories].some((category) => ['S', 'Z', 'AE', 'K', 'G'].includes(category)) && !sellerVat)
    fail('BR-S/Z/AE/IC/G-02', 'seller VAT identifier');
  if ((categories.has('AE') || categories.has('K')) && !buyerVat) fail('BR-AE/IC-02', 'buyer VAT identifier');
  if (categories.has('O') && (categories.size > 1 || sellerVat || buyerVat)) fail('BR-O-02/11', 'O mixed with VAT');
  if (categories.has('K')) {
    if (!ublText(root, 'cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode'))
      fail('BR-IC-12', 'deliver-to country');
    if (!ublText(root, 'cac:InvoicePeriod/cbc:StartDate') && !ublText(root, 'cac:Delivery/cbc:ActualDeliveryDate'))
      fail('BR-IC-11', 'delivery date or invoicing period');
  }

  const total = (name: string) => new Decimal(ublText(root, `cac:LegalMonetaryTotal/cbc:${name}`) ?? 'NaN');
  const lineExtension = total('LineExtensionAmount');
  if (!lineExtension.equals(lineSum)) fail('BR-CO-10', `LineExtensionAmount ${lineExtension} is not ${lineSum}`);
  if (!total('TaxExclusiveAmount').equals(lineExtension)) fail('BR-CO-13', 'TaxExclusiveAmount');
  if (!total('TaxInclusiveAmount').equals(total('TaxExclusiveAmount').plus(taxAmount)))
    fail('BR-CO-15', 'TaxInclusiveAmount');
  const prepaid = ublText(root, 'cac:LegalMonetaryTotal/cbc:PrepaidAmount');
  if (!total('PayableAmount').equals(total('TaxInclusiveAmount').minus(prepaid ?? '0')))
    fail('BR-CO-16', 'PayableAmount');
  return errors;
}

function* allElements(el: El): Generator<El> {
  yield el;
  for (const child of elementsOf(el)) yield* allElements(child);
}

/** GS1 GLN: 13 digits, the last the check digit (weights 3, 1, 3, ... from the right). */
function validGln(value: string): boolean {
  if (!/^\d{13}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}
