import type { invoicingV1 } from '@billing/proto';
import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { field, validationFailed } from '../../http/index.js';

export const VAT_EXPORT_COUNTRIES = ['world_wide', 'eu_countries'] as const;
export const VAT_EXPORT_GRANULARITIES = ['invoice', 'account'] as const;

/** POST /api/v1/invoices/vat-export/ (api-spec "Invoices"; gaps.md §9). */
export const VatExportBody = z
  .object({
    export_period: field.uuid().nullable(),
    export_countries: field.choice(VAT_EXPORT_COUNTRIES),
    export_granularity: field.choice(VAT_EXPORT_GRANULARITIES),
  })
  .partial()
  .meta({ id: 'VatExportRequest' });

/**
 * The VAT export's request with its defaults (every invoice, world_wide, invoice). A period must
 * be one of the organization's VAT billing periods (the months that have invoices): another is
 * 400 on export_period, as DRF answers a primary key that names no object.
 */
export async function vatExportRequest(
  clients: Pick<ServiceClients, 'invoicing'>,
  body: z.output<typeof VatExportBody>,
): Promise<invoicingV1.VatExportRequest> {
  const period = body.export_period ?? undefined;
  if (period !== undefined) {
    const { periods } = await clients.invoicing.call('listVatBillingPeriods', {});
    if (!periods.some((known) => known.uuid === period)) {
      throw validationFailed({ export_period: [`Invalid pk "${period}" - object does not exist.`] });
    }
  }
  return {
    export_period: period,
    export_countries: body.export_countries ?? 'world_wide',
    export_granularity: body.export_granularity ?? 'invoice',
  };
}
