/** The languages whose way of writing numbers is known (every text table has one of these). */
export type NumberLanguage = 'en' | 'da';

/** Digit grouping and decimal mark of each language (da: 1.234,56; en: 1,234.56). */
const SEPARATORS: Readonly<Record<NumberLanguage, { group: string; decimal: string }>> = {
  en: { group: ',', decimal: '.' },
  da: { group: '.', decimal: ',' },
};

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A decimal as text ("-1234.5") written the language's way ("-1.234,5" in da), digit for digit:
 * never through a JS number, so nothing is rounded. Anything that is not a plain decimal is
 * returned as it is. Shared by invoicing's documents and mails and payments' mails.
 */
export function formatNumber(value: string, language: NumberLanguage): string {
  const match = DECIMAL.exec(value);
  if (!match) return value;
  const [, sign, whole, fraction] = match;
  const { group, decimal } = SEPARATORS[language];
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${sign}${grouped}${fraction === undefined ? '' : `${decimal}${fraction}`}`;
}
