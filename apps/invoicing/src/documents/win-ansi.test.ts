import { describe, expect, it } from 'vitest';
import { toWinAnsi } from './win-ansi.js';

describe('toWinAnsi', () => {
  it('keeps Danish, German and the WinAnsi punctuation as they are', () => {
    expect(toWinAnsi('Æble Øl Åen æøå Straße Müller – “€ 5” … ™')).toBe('Æble Øl Åen æøå Straße Müller – “€ 5” … ™');
  });

  it('drops accents the fonts cannot show, maps Ł by hand and replaces the rest with ?', () => {
    expect(toWinAnsi('Łódź Kraków Plzeň Čačak')).toBe('Lódz Kraków Plzen Cacak');
    expect(toWinAnsi('ﬁle 😀 漢')).toBe('file ? ?');
  });

  it('keeps line breaks, turns tabs into spaces and drops control characters', () => {
    expect(toWinAnsi('a\r\nb\rc\td\u0007e\u0085f')).toBe('a\nb\nc d?e?f');
  });
});
