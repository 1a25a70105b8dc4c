import { SUBSCRIPTION_STATUSES } from '@billing/reference-data';
import { describe, expect, it } from 'vitest';
import { selfServiceTexts } from './self-service-texts.js';

describe('self-service texts', () => {
  it.each(['en', 'da'])('%s names every invoice and subscription status', (language) => {
    const texts = selfServiceTexts(language);
    expect(texts.lang).toBe(language);
    expect(Object.keys(texts.invoiceStatus).sort()).toEqual(['credited', 'open', 'paid']);
    expect(Object.keys(texts.subscriptionStatus).sort()).toEqual([...SUBSCRIPTION_STATUSES].sort());
  });

  it('falls back to English for a language without texts', () => {
    expect(selfServiceTexts('de').lang).toBe('en');
    expect(selfServiceTexts(undefined).lang).toBe('en');
    expect(selfServiceTexts('da').signInButton).toBe('Log ind');
  });
});
