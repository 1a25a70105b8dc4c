import { describe, expect, it } from 'vitest';
import { budgetFromRow, budgetsFromRows } from './account-budget.js';
import { nameBasedUuid } from './uuid.js';

const ORG = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const ROW = {
  budget_id: '2026',
  'erp_account.name': 'Sales',
  'erp_account.account_number': '1010',
  'erp_account.account_type': 'profit_loss',
  start_date: '2026-01-01',
  end_date: '2026-12-31',
  start_amount: '1000.5',
  calculated_amount: '-0',
};

describe('budgetFromRow', () => {
  it('fills the defaults: a stable uuid per account number, display name, vat code, no totals; amounts with two decimals', () => {
    const { record, violations } = budgetFromRow(ROW, ORG);

    expect(violations).toEqual([]);
    expect(record).toEqual({
      budget_id: '2026',
      erp_account: {
        uuid: nameBasedUuid('5d0c6a1e-8f1b-4e36-9b7a-2f6f3c1d9e42', `${ORG}/1010`),
        name: 'Sales',
        display_name: '1010 Sales',
        account_number: 1010,
        vat_code: '',
        account_type: 'profit_loss',
        totals_from: null,
        totals_to: null,
      },
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      start_amount: '1000.50',
      calculated_amount: '0.00',
    });
    expect(budgetFromRow(ROW, ORG).record?.erp_account.uuid).toBe(record?.erp_account.uuid);
  });

  it('keeps a given uuid (lower case), display name, vat code and totals', () => {
    const { record } = budgetFromRow(
      {
        ...ROW,
        'erp_account.uuid': '7B7E1C2A-0E0F-4D8C-8C3E-2F9A6B1D4E57',
        'erp_account.display_name': 'Sales DK',
        'erp_account.vat_code': 'U25',
        'erp_account.account_type': 'total_from',
        'erp_account.totals_from': '1000',
        'erp_account.totals_to': '1999',
      },
      ORG,
    );

    expect(record?.erp_account).toEqual({
      uuid: '7b7e1c2a-0e0f-4d8c-8c3e-2f9a6b1d4e57',
      name: 'Sales',
      display_name: 'Sales DK',
      account_number: 1010,
      vat_code: 'U25',
      account_type: 'total_from',
      totals_from: 1000,
      totals_to: 1999,
    });
  });

  it('names every wrong column', () => {
    const { record, violations } = budgetFromRow(
      {
        budget_id: ' ',
        'erp_account.uuid': 'nope',
        'erp_account.name': 'Sales',
        'erp_account.account_number': '10.5',
        'erp_account.account_type': 'asset',
        'erp_account.totals_from': '20',
        'erp_account.totals_to': '10',
        start_date: '2026-02-30',
        end_date: '2026-01-01',
        start_amount: '1.005',
        calculated_amount: '1e3',
      },
      ORG,
    );

    expect(record).toBeNull();
    expect(violations).toEqual([
      { field: 'budget_id', description: 'This field is required.' },
      { field: 'erp_account.account_number', description: 'Enter a whole number from 1 to 999999999.' },
      { field: 'erp_account.uuid', description: 'Must be a valid UUID.' },
      { field: 'erp_account.account_type', description: '"asset" is not a valid choice.' },
      { field: 'erp_account.totals_to', description: 'Must not be less than totals_from.' },
      { field: 'start_date', description: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.' },
      {
        field: 'start_amount',
        description: 'Enter a number with at most 18 digits before the decimal point and 2 after it.',
      },
      {
        field: 'calculated_amount',
        description: 'Enter a number with at most 18 digits before the decimal point and 2 after it.',
      },
    ]);
  });

  it('refuses an end before the start', () => {
    expect(budgetFromRow({ ...ROW, end_date: '2025-12-31' }, ORG).violations).toEqual([
      { field: 'end_date', description: 'Must not be before start_date.' },
    ]);
  });
});

describe('budgetsFromRows', () => {
  it('names the line (the header is line 1) and refuses a row repeating another', () => {
    const { records, violations } = budgetsFromRows(
      [ROW, { ...ROW, start_amount: 'x' }, { ...ROW, calculated_amount: '5' }, { ...ROW, start_date: '2026-02-01' }],
      ORG,
    );

    expect(records.map((budget) => budget.start_date)).toEqual(['2026-01-01', '2026-02-01']);
    expect(violations).toEqual([
      {
        field: 'line 3: start_amount',
        description: 'Enter a number with at most 18 digits before the decimal point and 2 after it.',
      },
      {
        field: 'line 4',
        description: 'Repeats line 2: the same budget_id, erp_account.account_number and start_date.',
      },
    ]);
  });
});
