/**
 * The standard PDF fonts (Helvetica) only have the WinAnsi glyphs: Latin-1 plus the 27 characters
 * below. pdfkit writes any other character as a broken code, so names such as "Łódź" or a stray
 * emoji in a description would corrupt the text. Text is reduced to WinAnsi first: letters lose
 * their accents where that gives a WinAnsi letter (Ł has no decomposition, so it is mapped by hand),
 * anything else becomes '?'.
 */
const WIN_ANSI_EXTRAS = new Set([
  '€',
  '‚',
  'ƒ',
  '„',
  '…',
  '†',
  '‡',
  'ˆ',
  '‰',
  'Š',
  '‹',
  'Œ',
  'Ž',
  '\u2018',
  '\u2019',
  '\u201C',
  '\u201D',
  '•',
  '–',
  '—',
  '˜',
  '™',
  'š',
  '›',
  'œ',
  'ž',
  'Ÿ',
]);

/** Letters without a Unicode decomposition to a Latin base letter. */
const BY_HAND: Readonly<Record<string, string>> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i' };

function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0)!;
  return char === '\n' || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char);
}

export function toWinAnsi(value: string): string {
  let out = '';
  for (const char of value.replace(/\r\n?/g, '\n').replace(/\t/g, ' ')) {
    if (isWinAnsi(char)) {
      out += char;
      continue;
    }
    const byHand = BY_HAND[char];
    if (byHand !== undefined) {
      out += byHand;
      continue;
    }
    const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
    out += base !== '' && [...base].every(isWinAnsi) ? base : '?';
  }
  return out;
}
