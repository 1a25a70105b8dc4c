export { renderInvoicePdf } from './invoice-pdf.js';
export { documentLanguage, type Language, TEXTS, type TextKey, text } from './texts.js';
