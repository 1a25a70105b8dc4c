import { describe, expect, it } from 'vitest';
import { hashApiToken, newApiToken, tokenPrefix } from './api-token.js';
import {
  dunningScheduleViolation,
  featureFlags,
  ORGANIZATION_DEFAULTS,
  recipientsHaveSelfService,
  reminderFeeViolation,
  reminderScheduleViolation,
  switchFeatures,
  updateOrganizationSettings,
  validateOrganization,
  validateRateLimit,
} from './organization.js';

describe('organization settings', () => {
  it('accepts the defaults of gaps.md §10', () => {
    expect(ORGANIZATION_DEFAULTS).toEqual({
      country: 'DK',
      base_currency: 'DKK',
      time_zone: 'Europe/Copenhagen',
      default_payment_terms: 14,
      default_collection_method: 'invoice',
      rate_limit_per_minute: 60,
      features: ['self_service'],
      address: '',
      zipcode: '',
      city: '',
      vat_number: '',
      email: '',
      dunning_schedule_days: [1, 3, 7],
      reminder_schedule_days: [3, 10, 20],
      reminder_fee: '',
    });
    expect(validateOrganization({ name: 'Acme', ...ORGANIZATION_DEFAULTS })).toEqual([]);
    expect(validateOrganization({ name: 'Acme', ...ORGANIZATION_DEFAULTS, vat_number: 'X'.repeat(33) })).toEqual([
      { field: 'vat_number', description: 'Ensure this field has no more than 32 characters.' },
    ]);
  });

  it('takes a dunning schedule of ascending whole days from 1 to 365, at most 10 (empty: no retries)', () => {
    expect(dunningScheduleViolation([])).toBeUndefined();
    expect(dunningScheduleViolation([2, 5, 30, 365])).toBeUndefined();
    expect(dunningScheduleViolation([3, 1])).toBe('The days must be in ascending order, each once.');
    expect(dunningScheduleViolation([1, 1])).toBe('The days must be in ascending order, each once.');
    expect(dunningScheduleViolation([0])).toBe('Each day must be a whole number from 1 to 365; got 0.');
    expect(dunningScheduleViolation([1.5])).toBe('Each day must be a whole number from 1 to 365; got 1.5.');
    expect(dunningScheduleViolation([...Array(11).keys()].map((day) => day + 1))).toBe(
      'Ensure there are no more than 10 retries.',
    );
    expect(validateOrganization({ name: 'Acme', ...ORGANIZATION_DEFAULTS, dunning_schedule_days: [7, 3] })).toEqual([
      { field: 'dunning_schedule_days', description: 'The days must be in ascending order, each once.' },
    ]);
  });

  it('takes a reminder schedule of ascending whole days and a positive fee with at most 2 decimals (or none)', () => {
    expect(reminderScheduleViolation([])).toBeUndefined();
    expect(reminderScheduleViolation([3, 10, 20])).toBeUndefined();
    expect(reminderScheduleViolation([10, 3])).toBe('The days must be in ascending order, each once.');
    expect(reminderScheduleViolation([0])).toBe('Each day must be a whole number from 1 to 365; got 0.');
    expect(reminderScheduleViolation([...Array(11).keys()].map((day) => day + 1))).toBe(
      'Ensure there are no more than 10 reminders.',
    );
    expect(reminderFeeViolation('')).toBeUndefined();
    expect(reminderFeeViolation('100')).toBeUndefined();
    expect(reminderFeeViolation('100.50')).toBeUndefined();
    for (const bad of ['0', '0.00', '-5', '1.234', '1,50', 'abc']) {
      expect(reminderFeeViolation(bad)).toBe('Enter a positive amount with at most 2 decimals, e.g. 100.00 (or none).');
    }
    expect(
      validateOrganization({
        name: 'Acme',
        ...ORGANIZATION_DEFAULTS,
        reminder_schedule_days: [20, 3],
        reminder_fee: '-1',
      }),
    ).toEqual([
      { field: 'reminder_schedule_days', description: 'The days must be in ascending order, each once.' },
      { field: 'reminder_fee', description: 'Enter a positive amount with at most 2 decimals, e.g. 100.00 (or none).' },
    ]);
  });

  it('names each invalid setting', () => {
    const violations = validateOrganization({
      ...ORGANIZATION_DEFAULTS,
      name: ' ',
      country: 'XX',
      base_currency: 'JPY',
      time_zone: 'Nowhere/City',
      rate_limit_per_minute: 0,
    });
    expect(violations.map((v) => v.field)).toEqual([
      'name',
      'country',
      'base_currency',
      'time_zone',
      'rate_limit_per_minute',
    ]);
  });

  it('refuses whole numbers the integer columns cannot hold, naming the field', () => {
    // Without this bound Postgres refuses the insert with an error that names no field.
    expect(
      validateOrganization({
        ...ORGANIZATION_DEFAULTS,
        name: 'Acme',
        default_payment_terms: 2_147_483_648,
        rate_limit_per_minute: 2_147_483_648,
      }),
    ).toEqual([
      { field: 'default_payment_terms', description: 'Ensure this value is less than or equal to 2147483647.' },
      { field: 'rate_limit_per_minute', description: 'Ensure this value is less than or equal to 2147483647.' },
    ]);
    expect(validateRateLimit(2_147_483_647)).toEqual([]);
    expect(validateRateLimit(0)).toEqual([
      { field: 'rate_limit_per_minute', description: 'Ensure this value is greater than or equal to 1.' },
    ]);
  });
});

describe('e-mail and feature flags', () => {
  it('takes an e-mail address or none, and only the known features', () => {
    const acme = { name: 'Acme', ...ORGANIZATION_DEFAULTS };
    expect(validateOrganization({ ...acme, email: 'faktura@acme.dk', features: ['kickback', 'self_service'] })).toEqual(
      [],
    );
    expect(validateOrganization({ ...acme, email: 'faktura@', features: ['kickback', 'dunning'] })).toEqual([
      { field: 'email', description: 'Enter a valid email address.' },
      { field: 'features', description: '"dunning" is not a feature; one of kickback, self_service.' },
    ]);
    expect(validateOrganization({ ...acme, email: `${'a'.repeat(250)}@x.dk` })).toEqual([
      { field: 'email', description: 'Ensure this field has no more than 254 characters.' },
    ]);
  });

  it('gives every recipient self-service access exactly while self_service is on', () => {
    expect(recipientsHaveSelfService(['self_service'])).toBe(true);
    expect(recipientsHaveSelfService(['kickback', 'self_service'])).toBe(true);
    expect(recipientsHaveSelfService(['kickback'])).toBe(false);
    expect(recipientsHaveSelfService([])).toBe(false);
  });

  it('shows every flag with its state, and switches flags keeping the others and the contract order', () => {
    expect(featureFlags(['self_service'])).toEqual({ kickback: false, self_service: true });
    expect(featureFlags([])).toEqual({ kickback: false, self_service: false });
    expect(switchFeatures(['self_service'], { kickback: true })).toEqual(['kickback', 'self_service']);
    expect(switchFeatures(['kickback', 'self_service'], { self_service: false, kickback: true })).toEqual(['kickback']);
    expect(switchFeatures([], { self_service: false })).toEqual([]);
  });
});

describe('updateOrganizationSettings', () => {
  const current = { name: 'Acme', ...ORGANIZATION_DEFAULTS };

  it('changes what is given and reports each change with its value before and after', () => {
    const update = updateOrganizationSettings(current, {
      name: 'Acme ApS',
      email: 'faktura@acme.dk',
      address: 'Vesterbrogade 1',
      default_payment_terms: 14,
      features: { kickback: true },
    });
    expect(update.settings).toEqual({
      ...current,
      name: 'Acme ApS',
      email: 'faktura@acme.dk',
      address: 'Vesterbrogade 1',
      features: ['kickback', 'self_service'],
    });
    // Payment terms were given but equal: not a change.
    expect(update.changed).toEqual({
      name: { from: 'Acme', to: 'Acme ApS' },
      features: { from: ['self_service'], to: ['kickback', 'self_service'] },
      address: { from: '', to: 'Vesterbrogade 1' },
      email: { from: '', to: 'faktura@acme.dk' },
    });
    expect(update.violations).toEqual([]);
  });

  it('validates the result like a new organization', () => {
    const update = updateOrganizationSettings(current, { country: 'XX', default_collection_method: 'cash' });
    expect(update.violations).toEqual([
      { field: 'country', description: '"XX" is not a valid choice.' },
      { field: 'default_collection_method', description: '"cash" is not a valid choice.' },
    ]);
  });
});

describe('api tokens', () => {
  it('are 40 random hex characters stored only as a SHA-256', () => {
    const token = newApiToken();
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(newApiToken()).not.toBe(token);
    expect(hashApiToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(tokenPrefix(token)).toBe(token.slice(0, 6));
  });
});
