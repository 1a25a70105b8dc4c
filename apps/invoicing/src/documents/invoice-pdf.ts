import type { InvoiceView } from '../domain/invoice-view.js';
import { text } from '../domain/language/texts.js';
import { type DocumentLine, type InvoiceDocument, invoiceDocument, type PartyBlock } from './invoice-document.js';
import { type Cell, PdfWriter } from './pdf-writer.js';

/**
 * The PDF of an invoice or credit note (A4, Helvetica): seller and buyer, number and dates, the
 * lines with their periods, totals with the amount due, the payment details (bank account,
 * reference, due date), the VAT breakdown, the VAT note and the payment terms, in the invoice's
 * language. The same invoice always renders the same bytes.
 */
export async function renderInvoicePdf(invoice: InvoiceView): Promise<Buffer> {
  const doc = invoiceDocument(invoice);
  const pdf = new PdfWriter({
    title: doc.heading,
    author: doc.author,
    createdAt: doc.createdAt,
    language: doc.language,
  });
  header(pdf, doc);
  linesTable(pdf, doc);
  totals(pdf, doc);
  paymentDetails(pdf, doc);
  vatBreakdown(pdf, doc);
  notes(pdf, doc);
  pdf.footers((page, pages) => text(doc.language, 'page', { page, pages }));
  return pdf.finish();
}

/** Seller and buyer on the left; title, number, dates and PO number on the right. */
function header(pdf: PdfWriter, doc: InvoiceDocument): void {
  const half = pdf.width / 2;
  const metaX = pdf.left + half + 20;
  const metaWidth = pdf.right - metaX;
  let right = pdf.at(pdf.y, [
    { text: doc.title, x: metaX, width: metaWidth, align: 'right', font: 'Helvetica-Bold', size: 20 },
  ]);
  right += 8;
  for (const [label, value] of doc.meta) {
    right = pdf.at(right, [
      { text: label, x: metaX, width: metaWidth / 2, font: 'Helvetica-Bold' },
      { text: value, x: metaX + metaWidth / 2, width: metaWidth / 2, align: 'right' },
    ]);
  }
  let left = party(pdf, doc.seller, pdf.y, half);
  left = party(pdf, doc.buyer, left + 18, half);
  pdf.y = Math.max(left, right) + 28;
}

function party(pdf: PdfWriter, block: PartyBlock, y: number, width: number): number {
  let end = pdf.at(y, [{ text: block.label, x: pdf.left, width, size: 8 }]);
  block.lines.forEach((line, i) => {
    end = pdf.at(end, [{ text: line, x: pdf.left, width, font: i === 0 ? 'Helvetica-Bold' : 'Helvetica' }]);
  });
  return end;
}

// Column layout of the lines table, as fractions of the text width.
const COLUMNS = { description: 0.43, quantity: 0.1, unitPrice: 0.16, vatRate: 0.1, amount: 0.21 } as const;
const GUTTER = 6;

function linesTable(pdf: PdfWriter, doc: InvoiceDocument): void {
  const x = columnPositions(pdf);
  const cells = (line: DocumentLine | InvoiceDocument['columns'], font: Cell['font']): Cell[] => [
    { text: line.quantity, x: x.quantity, width: x.width.quantity, align: 'right', font },
    { text: line.unitPrice, x: x.unitPrice, width: x.width.unitPrice, align: 'right', font },
    { text: line.vatRate, x: x.vatRate, width: x.width.vatRate, align: 'right', font },
    { text: line.amount, x: x.amount, width: x.width.amount, align: 'right', font },
  ];
  const tableHeader = () => {
    const bold = 'Helvetica-Bold';
    pdf.row(
      [
        { text: doc.columns.description, x: pdf.left, width: x.width.description, font: bold },
        ...cells(doc.columns, bold),
      ],
      3,
    );
    pdf.rule();
    pdf.space(5);
  };
  tableHeader();
  // A page that continues the table starts with the document's name and the header again.
  pdf.repeatOnNewPage(() => {
    continuationHeading(pdf, doc);
    tableHeader();
  });
  for (const line of doc.lines) {
    const description: Cell[] = [
      { text: line.description, x: pdf.left, width: x.width.description },
      ...line.details.map((detail) => ({ text: detail, x: pdf.left, width: x.width.description, size: 8 })),
    ];
    const numbers = cells(line, 'Helvetica');
    const descriptionHeight = description.reduce((sum, cell) => sum + pdf.height(cell), 0);
    // Measured as one block so a line and its period stay on the same page.
    pdf.ensure(Math.max(descriptionHeight, ...numbers.map((cell) => pdf.height(cell))));
    const top = pdf.y;
    let y = top;
    for (const cell of description) y = pdf.at(y, [cell]);
    pdf.y = Math.max(y, pdf.at(top, numbers)) + 6;
  }
  pdf.repeatOnNewPage(() => continuationHeading(pdf, doc));
  pdf.rule();
  pdf.space(8);
}

function continuationHeading(pdf: PdfWriter, doc: InvoiceDocument): void {
  pdf.row([{ text: doc.heading, x: pdf.left, width: pdf.width, size: 8 }], 10);
}

function columnPositions(pdf: PdfWriter) {
  const width = {
    description: pdf.width * COLUMNS.description - GUTTER,
    quantity: pdf.width * COLUMNS.quantity - GUTTER,
    unitPrice: pdf.width * COLUMNS.unitPrice - GUTTER,
    vatRate: pdf.width * COLUMNS.vatRate - GUTTER,
    amount: pdf.width * COLUMNS.amount,
  };
  const quantity = pdf.left + pdf.width * COLUMNS.description;
  const unitPrice = quantity + pdf.width * COLUMNS.quantity;
  const vatRate = unitPrice + pdf.width * COLUMNS.unitPrice;
  const amount = vatRate + pdf.width * COLUMNS.vatRate;
  return { width, quantity, unitPrice, vatRate, amount };
}

/** Subtotal, VAT and total, right-aligned under the amounts. */
function totals(pdf: PdfWriter, doc: InvoiceDocument): void {
  const labelX = pdf.left + pdf.width * 0.5;
  const valueWidth = pdf.width * 0.25;
  const valueX = pdf.right - valueWidth;
  pdf.ensure(doc.totals.length * 14);
  for (const row of doc.totals) {
    const font = row.strong ? 'Helvetica-Bold' : 'Helvetica';
    const size = row.strong ? 11 : 9;
    pdf.row(
      [
        { text: row.label, x: labelX, width: valueX - labelX - GUTTER, font, size },
        { text: row.value, x: valueX, width: valueWidth, align: 'right', font, size },
      ],
      4,
    );
  }
  pdf.space(16);
}

/** Bank account, payment reference and due date: label and value, one row each. */
function paymentDetails(pdf: PdfWriter, doc: InvoiceDocument): void {
  if (doc.payment === null || doc.payment.rows.length === 0) return;
  const labelWidth = pdf.width * 0.25;
  pdf.ensure(20 + doc.payment.rows.length * 14);
  pdf.row([{ text: doc.payment.title, x: pdf.left, width: pdf.width, font: 'Helvetica-Bold', size: 10 }], 4);
  for (const [label, value] of doc.payment.rows) {
    pdf.row(
      [
        { text: label, x: pdf.left, width: labelWidth - GUTTER },
        { text: value, x: pdf.left + labelWidth, width: pdf.width - labelWidth },
      ],
      2,
    );
  }
  pdf.space(14);
}

/** One row per VAT rate: rate, taxable amount, VAT. */
function vatBreakdown(pdf: PdfWriter, doc: InvoiceDocument): void {
  const { title, columns, rows } = doc.vatBreakdown;
  if (rows.length === 0) return;
  const width = pdf.width * 0.2;
  const xs = [pdf.left, pdf.left + width, pdf.left + 2 * width];
  const cells = (values: readonly [string, string, string], font: Cell['font']): Cell[] =>
    values.map((value, i) => ({
      text: value,
      x: xs[i]!,
      width: width - GUTTER,
      align: i === 0 ? 'left' : 'right',
      font,
    }));
  pdf.ensure(30 + rows.length * 14);
  pdf.row([{ text: title, x: pdf.left, width: pdf.width, font: 'Helvetica-Bold', size: 10 }], 4);
  pdf.row(cells(columns, 'Helvetica-Bold'), 2);
  for (const row of rows) pdf.row(cells(row, 'Helvetica'), 2);
  pdf.space(14);
}

function notes(pdf: PdfWriter, doc: InvoiceDocument): void {
  for (const note of doc.notes) pdf.row([{ text: note, x: pdf.left, width: pdf.width }], 6);
}
