import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { runWithContext } from '@billing/observability';
import { accountsV1, analyticsV1, invoicingV1, subscriptionsV1 } from '@billing/proto';
import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineRoute, detailError, HttpResponse, type Route } from '../../http/index.js';
import { accountListFilter } from '../accounts/account-list.js';
import { ACCOUNT_ORDERING_FIELDS, AccountFilters } from '../accounts/account-schemas.js';
import { accountActivityFilterOf, activityFilterOf } from '../activities/activity-filter.js';
import {
  ACCOUNT_ACTIVITY_ORDERING,
  ACTIVITY_ORDERING,
  AccountActivityFilters,
  ActivityFilters,
} from '../activities/activity-schemas.js';
import { resolveInvoiceFilter } from '../invoices/invoice-list-filter.js';
import { DEFAULT_INVOICE_ORDERING, INVOICE_ORDERING, InvoiceFilters } from '../invoices/invoice-schemas.js';
import { pageOf } from '../shared/page-of.js';
import { organizationTimeZoneOf, resolveSubscriptionFilter } from '../subscriptions/subscription-list-filter.js';
import { SUBSCRIPTION_ORDERING, SubscriptionFilters } from '../subscriptions/subscription-schemas.js';
import { filtersFromBody, ListFilterBody, NOTHING_MATCHES } from './export-body.js';
import { csvColumns, csvFile, csvFileOfRecords } from './export-csv.js';
import {
  EXPORT_DOWNLOAD_PATH,
  EXPORT_JOB_PATH,
  exportStarted,
  findExportJob,
  presentExportJob,
} from './export-jobs.js';
import {
  ACCOUNT_ACTIVITY_EXPORT,
  ACCOUNT_EXPORT,
  ACTIVITY_EXPORT,
  EXPORT_KINDS,
  type ExportKind,
  INVOICE_EXPORT,
  SUBSCRIPTION_EXPORT,
  VAT_EXPORT,
} from './export-kinds.js';
import { VatExportBody, vatExportRequest } from './vat-export-body.js';

const TAGS = ['exports'];
const gunzipAsync = promisify(gunzip);
const JobParams = z.object({ job_uuid: z.uuid() });

const ExportJobSchema = z
  .object({
    job_uuid: z.uuid(),
    status: z.enum(['pending', 'running', 'done', 'failed']),
    progress: z.int(),
    rows: z.int(),
    download_url: z.string().nullable(),
    failure_reason: z.string().nullable(),
    expires_date: z.string().nullable(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'ExportJob' });

const ExportStartedSchema = z.object({ export_id: z.string(), job_uuid: z.uuid() }).meta({ id: 'ExportStarted' });
const ActionStartedSchema = z.object({ action_id: z.string(), job_uuid: z.uuid() }).meta({ id: 'ExportActionStarted' });

/**
 * gaps.md §9: POST .../export/ with the list's filters starts a job in the service owning the
 * list; the job, then its CSV, are read by uuid (docs/api.md "Exports").
 */
export function exportRoutes(clients: ServiceClients): Route[] {
  const start = async (kind: ExportKind, params: Uint8Array) =>
    (await clients.exports[kind.owner].call('startExport', { kind: kind.kind, params: Buffer.from(params) })).job!;

  const invoices = defineRoute({
    method: 'post',
    path: '/api/v1/invoices/export/',
    operationId: 'exportInvoices',
    summary: 'Export the invoice list as CSV (asynchronous)',
    description:
      'The body takes the invoice list’s filters and ordering (as JSON values or strings); every matching invoice is exported, no paging. Answers 202 with the job to poll at /api/v1/exports/{job_uuid}/.',
    tags: TAGS,
    body: ListFilterBody,
    response: { status: 202, schema: ExportStartedSchema },
    handler: async ({ body, req }) => {
      const { filters, ordering } = filtersFromBody(body, InvoiceFilters, INVOICE_ORDERING);
      const filter = (await resolveInvoiceFilter(clients, filters)) ?? { uuid: NOTHING_MATCHES, search_accounts: [] };
      const params = invoicingV1.ListInvoicesRequest.encode({
        page: pageOf({ page: 1, pageSize: 0, ordering }, DEFAULT_INVOICE_ORDERING),
        filter,
      }).finish();
      return exportStarted(req, await start(INVOICE_EXPORT, params), 'export_id');
    },
  });

  const vat = defineRoute({
    method: 'post',
    path: '/api/v1/invoices/vat-export/',
    aliases: ['/api/v1/invoices/vat_export/'],
    operationId: 'exportInvoiceVat',
    summary: 'Export the VAT report of invoices as CSV (asynchronous)',
    description:
      'export_period: a VAT billing period’s uuid (all invoices when absent); export_countries: world_wide (default) or eu_countries; export_granularity: invoice (default) or account.',
    tags: TAGS,
    body: VatExportBody,
    response: { status: 202, schema: ExportStartedSchema },
    handler: async ({ body, req }) => {
      const request = await vatExportRequest(clients, body);
      const job = await start(VAT_EXPORT, invoicingV1.VatExportRequest.encode(request).finish());
      return exportStarted(req, job, 'export_id');
    },
  });

  const accounts = defineRoute({
    method: 'post',
    path: '/api/v1/accounts/export/',
    operationId: 'exportAccounts',
    summary: 'Export the account list as CSV (asynchronous)',
    description:
      'The body takes the account list’s filters and ordering (as JSON values or strings); every matching account is exported, no paging. Answers 202 {export_id, job_uuid}.',
    tags: TAGS,
    body: ListFilterBody,
    response: { status: 202, schema: ExportStartedSchema },
    handler: async ({ body, req }) => {
      const { filters, ordering } = filtersFromBody(body, AccountFilters, ACCOUNT_ORDERING_FIELDS);
      const params = accountsV1.ListAccountsRequest.encode({
        page: pageOf({ page: 1, pageSize: 0, ordering }),
        filter: accountListFilter(filters),
      }).finish();
      return exportStarted(req, await start(ACCOUNT_EXPORT, params), 'export_id');
    },
  });

  const subscriptions = defineRoute({
    method: 'post',
    path: '/api/v1/subscriptions/export/',
    operationId: 'exportSubscriptions',
    summary: 'Export the subscription list as CSV (asynchronous)',
    description:
      'The body takes the subscription list’s filters and ordering (as JSON values or strings); every matching subscription is exported, no paging. Answers 202 {action_id, job_uuid}.',
    tags: TAGS,
    body: ListFilterBody,
    response: { status: 202, schema: ActionStartedSchema },
    handler: async ({ body, req, context }) => {
      const { filters, ordering } = filtersFromBody(body, SubscriptionFilters, SUBSCRIPTION_ORDERING);
      const resolved = await resolveSubscriptionFilter(clients, filters, organizationTimeZoneOf(clients, context));
      const params = subscriptionsV1.ListSubscriptionsRequest.encode({
        page: pageOf({ page: 1, pageSize: 0, ordering }),
        filter: resolved ?? { account_in: [], account_in_set: true },
      }).finish();
      return exportStarted(req, await start(SUBSCRIPTION_EXPORT, params), 'action_id');
    },
  });

  const activities = defineRoute({
    method: 'post',
    path: '/api/v1/activities/export/',
    operationId: 'exportActivities',
    summary: 'Export the activity list as CSV (asynchronous)',
    description:
      'The body takes the activity list’s filters and ordering (as JSON values or strings); every matching activity is exported, no paging (future: dated after the organization’s now when the job runs). Answers 202 {export_id, job_uuid}.',
    tags: TAGS,
    body: ListFilterBody,
    response: { status: 202, schema: ExportStartedSchema },
    handler: async ({ body, req, context }) => {
      const { filters, ordering } = filtersFromBody(body, ActivityFilters, ACTIVITY_ORDERING);
      const params = analyticsV1.ListActivitiesRequest.encode({
        page: pageOf({ page: 1, pageSize: 0, ordering }, '-date'),
        filter: await activityFilterOf(filters, organizationTimeZoneOf(clients, context)),
      }).finish();
      return exportStarted(req, await start(ACTIVITY_EXPORT, params), 'export_id');
    },
  });

  const accountActivities = defineRoute({
    method: 'post',
    path: '/api/v1/activities/account/export/',
    operationId: 'exportAccountActivities',
    summary: 'Export the account activity list as CSV (asynchronous)',
    description:
      'The body takes the account activity list’s filters and ordering (as JSON values or strings); every matching account activity is exported, no paging. Answers 202 {export_id, job_uuid}.',
    tags: TAGS,
    body: ListFilterBody,
    response: { status: 202, schema: ExportStartedSchema },
    handler: async ({ body, req, context }) => {
      const { filters, ordering } = filtersFromBody(body, AccountActivityFilters, ACCOUNT_ACTIVITY_ORDERING);
      const params = analyticsV1.ListAccountActivitiesRequest.encode({
        page: pageOf({ page: 1, pageSize: 0, ordering }, '-date'),
        filter: await accountActivityFilterOf(filters, organizationTimeZoneOf(clients, context)),
      }).finish();
      return exportStarted(req, await start(ACCOUNT_ACTIVITY_EXPORT, params), 'export_id');
    },
  });

  const job = defineRoute({
    method: 'get',
    path: EXPORT_JOB_PATH,
    operationId: 'getExportJob',
    summary: 'An export job: status (pending, running, done, failed), progress 0-100, rows, download_url',
    tags: TAGS,
    params: JobParams,
    response: { status: 200, schema: ExportJobSchema },
    handler: async ({ params, req }) => presentExportJob(req, (await findExportJob(clients, params.job_uuid)).job),
  });

  const download = defineRoute({
    method: 'get',
    path: EXPORT_DOWNLOAD_PATH,
    operationId: 'downloadExport',
    summary: 'The CSV of a done export (text/csv; charset=utf-8, RFC 4180, one header row)',
    description:
      'The list representation’s fields as columns (nested objects as dotted columns, e.g. account.code), every exported row. 400 while the job is not done.',
    tags: TAGS,
    params: JobParams,
    response: { status: 200, description: 'text/csv; charset=utf-8' },
    handler: async ({ params, context }) => {
      const { owner, job } = await findExportJob(clients, params.job_uuid);
      const kind = EXPORT_KINDS.get(job.kind);
      if (job.status !== 'done' || !kind) throw detailError(400, `The export is not done (status: ${job.status}).`);
      const exporter = clients.exports[owner];
      const readPage = (index: number) =>
        runWithContext(context, () => exporter.call('readExportPage', { uuid: job.uuid, index }));
      const headers = { 'Content-Disposition': `attachment; filename="${kind.fileStem}-${job.uuid}.csv"` };
      const contentType = 'text/csv; charset=utf-8';
      // The file streams after the handler returned: each page is read (and presented) in the
      // request's context (organization, request id), one page in memory at a time.
      const present = kind.present;
      if (!present) {
        // gzip-compressed CSV records (libs/exports gzippedPages): the next page is read while
        // this one is unpacked and sent.
        async function* records() {
          let next = job.pages > 0 ? readPage(0) : null;
          for (let index = 0; next; index++) {
            const page = await next;
            next = index + 1 < job.pages ? readPage(index + 1) : null;
            next?.catch(() => {});
            yield await gunzipAsync(page.data);
          }
        }
        return new HttpResponse(200, csvFileOfRecords(csvColumns(kind.item), records()), { contentType, headers });
      }
      const pages = async function* () {
        for (let index = 0; index < job.pages; index++) {
          yield await runWithContext(context, async () => present(clients, (await readPage(index)).data));
        }
      };
      return new HttpResponse(200, csvFile(csvColumns(kind.item), pages()), { contentType, headers });
    },
  });

  return [invoices, vat, accounts, subscriptions, activities, accountActivities, job, download];
}
