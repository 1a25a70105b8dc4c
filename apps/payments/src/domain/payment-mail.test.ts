import { describe, expect, it } from 'vitest';
import { mailLanguage, mailRecipients, paymentMailText } from './payment-mail.js';

const organization = { name: 'Nordlys ApS', timeZone: 'Europe/Copenhagen' };

describe('payment mails', () => {
  it('confirms a payment in Danish with the amount written the Danish way and the local day', () => {
    const mail = paymentMailText(
      {
        kind: 'payment_confirmation',
        invoice_number: '12',
        amount: '1250.500000',
        currency: 'DKK',
        brand: 'visa',
        last4: '4242',
        // 23:30 UTC on the 31st is the 1st in Copenhagen.
        paid_at: '2026-01-31T23:30:00.000Z',
      },
      'da-DK',
      organization,
    );
    expect(mail).toEqual({
      subject: 'Betaling modtaget for faktura 12',
      text: 'Hej,\n\nVi har modtaget din betaling på 1.250,50 DKK for faktura 12, trukket på dit visa-kort, der slutter på 4242, den 2026-02-01.\n\nTak.\nNordlys ApS\n',
    });
  });

  it('tells of a declined charge and the day of the next attempt, or that none follows', () => {
    const declined = {
      kind: 'payment_declined' as const,
      invoice_number: '7',
      amount: '125.000000',
      currency: 'DKK',
      brand: 'visa',
      last4: '0002',
      attempted_at: '2026-01-15T09:00:00.000Z',
      next_attempt_at: '2026-01-16T09:00:00.000Z',
    };
    expect(paymentMailText(declined, 'en', organization)).toEqual({
      subject: 'Payment for invoice 7 was declined',
      text: 'Hello,\n\nYour visa card ending in 0002 was declined when we charged 125.00 DKK for invoice 7 on 2026-01-15.\nWe will try again on 2026-01-16.\n\nNordlys ApS\n',
    });
    expect(paymentMailText({ ...declined, next_attempt_at: null }, 'da', organization).text).toContain(
      'Vi prøver ikke igen: tilføj venligst et andet kort, eller betal fakturaen på anden vis.',
    );
  });

  it('warns of a card expiring this month; languages without texts are English', () => {
    const mail = paymentMailText(
      { kind: 'card_expires_this_month', brand: 'mastercard', last4: '4444', month: 3, year: 2030 },
      'de',
      organization,
    );
    expect(mail.subject).toBe('Your card ending in 4444 expires this month');
    expect(mail.text).toContain('expires at the end of this month (03/2030)');
    expect(mailLanguage('DA')).toBe('da');
    expect(mailLanguage('')).toBe('en');
  });

  it('goes to the recipients whose flag asks for that kind of mail', () => {
    const recipients = [
      { name: 'A', email: 'a@x.dk', receivePaymentConfirmation: true, receivePaymentCardNotifications: false },
      { name: 'B', email: 'b@x.dk', receivePaymentConfirmation: false, receivePaymentCardNotifications: true },
    ];
    expect(mailRecipients('payment_confirmation', recipients).map((r) => r.name)).toEqual(['A']);
    expect(mailRecipients('payment_declined', recipients).map((r) => r.name)).toEqual(['B']);
    expect(mailRecipients('card_expires_this_month', recipients).map((r) => r.name)).toEqual(['B']);
  });
});
