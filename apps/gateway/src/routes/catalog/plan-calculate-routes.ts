import { AppError, isAppError, StatusCode } from '@billing/errors';
import type { accountsV1 } from '@billing/proto';
import { type BuyerAccount, decideBuyer } from '@billing/tax';
import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineRoute, field, type Route } from '../../http/index.js';
import { accountDoesNotExist } from '../shared/account-lookup.js';
import { tagged } from '../shared/representation.js';

/** gaps.md §5. account_code and account_country_code name the buyer; both may be left out or null. */
export const PlanCalculateBody = z
  .object({
    terms: field.uuid(),
    quantity: field.int32({ min: 0 }),
    account_code: field.string({ max: 128 }).nullable(),
    account_country_code: field.country().nullable(),
  })
  .partial()
  .required({ terms: true, quantity: true });

const decimal = (description: string) => z.string().meta({ format: 'decimal', description });

export const PlanCalculationSchema = z
  .object({
    currency: z.string(),
    unit_price: decimal("The terms' price, exact, with at least the currency's decimals"),
    discount: decimal("What the account's contract tiers take off: unit discount × quantity, rounded"),
    quantity: z.int(),
    subtotal: decimal('Discounted unit price × quantity, rounded to the minor unit'),
    vat_rate: decimal('Percent, e.g. "25.00"; "0.00" when no VAT is charged'),
    vat: decimal('subtotal × vat_rate / 100, rounded to the minor unit'),
    total: decimal('subtotal + vat'),
    reverse_charge: z.boolean(),
    vat_reason: z.string().meta({
      description:
        'Why vat_rate applies: not_collected, seller_outside_eu, domestic, outside_eu, eu_reverse_charge, eu_invalid_vat_number, eu_no_vat_number',
    }),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'PlanCalculation' });

/**
 * POST /api/v1/plans/calculate/: a price preview, computed by the subscriptions service and never
 * stored. The gateway gathers the VAT facts the service does not own: the organization's country
 * (and time zone, for "today" of the contract) and the named account; which of them is the buyer
 * is decideBuyer's rule (libs/tax).
 */
export function planCalculateRoutes({ accounts, identity, catalog }: ServiceClients): Route[] {
  /** The account named by code: 400 on `account_code` when unknown or another organization's. */
  const accountOf = async (code: string): Promise<accountsV1.Account> => {
    try {
      return (await accounts.call('getAccount', { code })).account!;
    } catch (error) {
      if (isAppError(error) && error.code === StatusCode.NOT_FOUND) {
        throw AppError.invalidField('account_code', accountDoesNotExist(code));
      }
      throw error;
    }
  };

  /** The named account's facts the buyer rule needs. */
  const buyerAccountOf = async (code: string): Promise<BuyerAccount> => {
    const account = await accountOf(code);
    return { uuid: account.uuid, legal_country: account.legal_country, legal_vat_number: account.legal_vat_number };
  };

  const calculate = defineRoute({
    method: 'post',
    path: '/api/v1/plans/calculate/',
    operationId: 'calculatePlanPrice',
    summary: 'Price a quantity of plan terms for a buyer, with contract tiers and VAT (not stored)',
    description:
      'The buyer is the account named by account_code (its legal country and VAT number; its contract on the terms that applies today gives the tiers), else a person in account_country_code, else a person in the organization’s country. VAT follows gaps.md §7.',
    tags: ['plans'],
    body: PlanCalculateBody,
    response: { status: 200, schema: PlanCalculationSchema },
    handler: async ({ body, context }) => {
      const [organization, account] = await Promise.all([
        identity.call('getOrganization', {}).then((reply) => reply.organization!),
        body.account_code != null ? buyerAccountOf(body.account_code) : null,
      ]);
      const buyer = decideBuyer({
        account,
        requested_country: body.account_country_code,
        organization_country: organization.country,
      });
      const reply = await catalog.call(
        'calculatePrice',
        {
          terms: body.terms,
          quantity: body.quantity,
          // Unset: a person, no contract.
          account: buyer.account ?? undefined,
          buyer: { country: buyer.country, vat_number: buyer.vat_number },
          seller_country: organization.country,
        },
        // "Today" of the contract is the organization's local day.
        { context: { ...context, organizationTimeZone: context.organizationTimeZone ?? organization.time_zone } },
      );
      return tagged('plan_calculation', {
        currency: reply.currency,
        unit_price: reply.unit_price,
        discount: reply.discount,
        quantity: reply.quantity,
        subtotal: reply.subtotal,
        vat_rate: reply.vat_rate,
        vat: reply.vat,
        total: reply.total,
        reverse_charge: reply.reverse_charge,
        vat_reason: reply.vat_reason,
      });
    },
  });

  return [calculate];
}
