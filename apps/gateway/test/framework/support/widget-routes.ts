import { AppError, StatusCode } from '@billing/errors';
import { currentContext } from '@billing/observability';
import { z } from 'zod';
import {
  defineListRoute,
  defineRoute,
  field,
  filterField,
  HttpResponse,
  instantRange,
  orgTzDateFilters,
  PAYMENT_GATEWAYS,
  type Route,
  rangeFilters,
} from '../../../src/http/index.js';

/** The fake organization's time zone, as a business route would look it up. */
export const ORG_TIME_ZONE = 'Europe/Copenhagen';

export interface Widget {
  uuid: string;
  name: string;
  color: 'red' | 'green' | 'blue';
  size: number;
  active: boolean;
  created_date: string;
}

/** The fake backend: what a gRPC service would hold, kept in a list for the test. */
export class WidgetStore {
  readonly widgets: Widget[] = [];

  add(widget: Partial<Widget> & Pick<Widget, 'uuid' | 'name'>): Widget {
    const full: Widget = { color: 'green', size: 1, active: true, created_date: '2026-01-01T00:00:00.000Z', ...widget };
    this.widgets.push(full);
    return full;
  }

  get(uuid: string): Widget {
    const widget = this.widgets.find((candidate) => candidate.uuid === uuid);
    if (!widget) throw AppError.notFound();
    return widget;
  }
}

const WidgetSchema = z
  .object({
    uuid: z.uuid(),
    name: z.string(),
    color: z.enum(['red', 'green', 'blue']),
    size: z.int(),
    active: z.boolean(),
    created_date: z.iso.datetime(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'Widget' });

const represent = (widget: Widget) => ({ ...widget, model: 'widget', schema: '2026-11-22-widget' });

const WidgetParams = z.object({ uuid: field.uuid() });

const WidgetFilters = z.object({
  name: filterField.string(),
  color: filterField.choice(['red', 'green', 'blue']),
  active: filterField.boolean(),
  uuid: filterField.uuid(),
  size: filterField.integer(),
  launch_date: filterField.date(),
  ...rangeFilters('size', filterField.integer, ['gt', 'lt']),
  ...rangeFilters('created_date', filterField.datetime),
  ...orgTzDateFilters('created_date'),
});

/** Every field builder once, so tests see each DRF message. */
const WidgetInput = z.object({
  name: field.string({ max: 128 }),
  nickname: field.nullableString({ max: 10, allowBlank: true }).optional(),
  color: field.choice(['red', 'green', 'blue']).optional(),
  size: field.integer({ min: 0, max: 100 }).optional(),
  active: field.boolean().optional(),
  contact: field.email().optional(),
  owner: field.uuid().optional(),
  launch_date: field.date().optional(),
  launch_at: field.datetime().optional(),
  price: field.decimal({ maxDigits: 8, decimalPlaces: 2 }).optional(),
  country: field.country().optional(),
  currency: field.currency().optional(),
  dimensions: z.object({ width: field.integer({ min: 1 }), height: field.integer({ min: 1 }) }).optional(),
  tags: field.list(field.string({ max: 5 })).optional(),
  parts: field.list(z.object({ sku: field.string({ max: 8 }), quantity: field.integer({ min: 1 }) })).optional(),
});

const ParsedEcho = z.record(z.string(), z.unknown());

const GatewayAccounts = field.list(
  z.object({
    payment_gateway: field.choice(PAYMENT_GATEWAYS),
    payment_gateway_account_id: field.string({ max: 256 }),
  }),
  { allowEmpty: false },
);

const FAILURES = {
  unavailable: () => new AppError({ code: StatusCode.UNAVAILABLE, reason: 'DOWN', message: 'accounts is down' }),
  deadline: () => new AppError({ code: StatusCode.DEADLINE_EXCEEDED, reason: 'SLOW', message: 'too slow' }),
  internal: () => AppError.internal('database password is hunter2'),
  plain: () => new Error('secret stack detail'),
  refused: () => AppError.refused('EXPIRED', 'Subscription is expired.'),
  'not-found': () => new AppError({ code: StatusCode.NOT_FOUND, reason: 'NOT_FOUND', message: 'Widget 42 of org-b' }),
  unauthenticated: () => AppError.unauthenticated(),
  'permission-denied': () =>
    new AppError({ code: StatusCode.PERMISSION_DENIED, reason: 'DENIED', message: 'no widgets for you' }),
  exhausted: () => new AppError({ code: StatusCode.RESOURCE_EXHAUSTED, reason: 'QUOTA', message: 'Quota used up.' }),
  aborted: () => new AppError({ code: StatusCode.ABORTED, reason: 'CONFLICT', message: 'Changed meanwhile.' }),
  'already-exists': () =>
    new AppError({
      code: StatusCode.ALREADY_EXISTS,
      reason: 'DUPLICATE_CODE',
      message: 'duplicate',
      fieldViolations: [{ field: 'code', description: 'account with this code already exists.' }],
    }),
  violations: () =>
    AppError.invalid([
      { field: 'legal_country', description: '"XX" is not a valid choice.' },
      { field: 'address.city', description: 'This field may not be blank.' },
      { field: 'address.non_field_errors', description: 'Address is incomplete.' },
      { field: '', description: 'Either code or uuid is required.' },
      { field: 'non_field_errors', description: 'Something else too.' },
    ]),
  'invalid-no-fields': () => AppError.invalid([], 'The request makes no sense.'),
} satisfies Record<string, () => Error>;

export function widgetRoutes(store: WidgetStore): Route[] {
  return [
    defineListRoute({
      path: '/api/v1/widgets/',
      operationId: 'listWidgets',
      summary: 'List widgets',
      tags: ['widgets'],
      item: WidgetSchema,
      query: WidgetFilters,
      ordering: ['name', 'created_date'],
      fieldsHeader: true,
      handler: async ({ query, page }) => {
        const created = instantRange(query, 'created_date', ORG_TIME_ZONE);
        let matches = store.widgets.filter((widget) => {
          const at = new Date(widget.created_date);
          return (
            (query.name === undefined || widget.name === query.name) &&
            (query.color === undefined || widget.color === query.color) &&
            (query.active === undefined || widget.active === query.active) &&
            (query.uuid === undefined || widget.uuid === query.uuid) &&
            (query.size__gt === undefined || widget.size > query.size__gt) &&
            (query.size__lt === undefined || widget.size < query.size__lt) &&
            (created.gte === undefined || at >= created.gte) &&
            (created.lte === undefined || at <= created.lte)
          );
        });
        const [term] = page.ordering;
        if (term) {
          const key = term.replace(/^-/, '') as 'name' | 'created_date';
          const direction = term.startsWith('-') ? -1 : 1;
          matches = [...matches].sort((a, b) => a[key].localeCompare(b[key]) * direction);
        }
        const start = (page.page - 1) * page.pageSize;
        return { count: matches.length, results: matches.slice(start, start + page.pageSize).map(represent) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/widgets/',
      operationId: 'createWidget',
      summary: 'Create a widget',
      tags: ['widgets'],
      body: WidgetInput,
      response: { status: 201, schema: ParsedEcho },
      // Echoes what validation produced, so tests see coercions and normalisations.
      handler: async ({ body }) => ({
        ...body,
        launch_at: body.launch_at?.toISOString(),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/widgets/{uuid}/',
      operationId: 'getWidget',
      summary: 'One widget',
      tags: ['widgets'],
      params: WidgetParams,
      fieldsHeader: true,
      response: { status: 200, schema: WidgetSchema },
      handler: async ({ params }) => represent(store.get(params.uuid)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/widgets/{uuid}/',
      operationId: 'updateWidget',
      summary: 'Change a widget',
      tags: ['widgets'],
      params: WidgetParams,
      body: WidgetInput.pick({ name: true, color: true }).partial(),
      response: { status: 200, schema: WidgetSchema },
      handler: async ({ params, body }) => represent(Object.assign(store.get(params.uuid), body)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/widgets/{uuid}/',
      operationId: 'deleteWidget',
      summary: 'Delete a widget',
      tags: ['widgets'],
      params: WidgetParams,
      response: { status: 204 },
      handler: async ({ params }) => {
        store.widgets.splice(store.widgets.indexOf(store.get(params.uuid)), 1);
        return undefined;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/widgets/{uuid}/paint-red/',
      aliases: ['/api/v1/widgets/{uuid}/paint_red/'],
      operationId: 'paintWidgetRed',
      summary: 'Paint a widget red',
      tags: ['widgets'],
      params: WidgetParams,
      response: { status: 200, schema: WidgetSchema },
      handler: async ({ params }) => {
        const widget = store.get(params.uuid);
        if (widget.color === 'red') throw AppError.refused('ALREADY_RED', 'Widget is already red.');
        widget.color = 'red';
        return represent(widget);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/widgets/{uuid}/polish/',
      operationId: 'polishWidget',
      summary: 'An action whose refusals are {"error": ...}, like the invoice actions',
      params: WidgetParams,
      refusalBodyKey: 'error',
      response: { status: 200, schema: WidgetSchema },
      handler: async ({ params }) => {
        const widget = store.get(params.uuid);
        if (!widget.active) throw AppError.refused('INACTIVE', 'Inactive widgets cannot be polished.');
        return represent(widget);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/widgets/{uuid}/gateways/',
      operationId: 'setWidgetGateways',
      summary: 'A list body, like payment-gateways/',
      params: WidgetParams,
      body: GatewayAccounts,
      response: { status: 200, schema: GatewayAccounts },
      handler: async ({ params, body }) => {
        store.get(params.uuid);
        const ids = body.map((account) => account.payment_gateway_account_id);
        const duplicate = ids.findIndex((id, index) => ids.indexOf(id) !== index);
        if (duplicate !== -1) {
          throw AppError.invalidField(`${duplicate}.payment_gateway_account_id`, 'Duplicate account id.');
        }
        return body;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/widgets/{uuid}/export/',
      operationId: 'exportWidget',
      summary: 'Answers 202 through an explicit HttpResponse',
      params: WidgetParams,
      response: { status: 202, schema: z.object({ job_uuid: z.string() }) },
      handler: async () => new HttpResponse(202, { job_uuid: 'job-1' }, { headers: { Location: '/jobs/job-1/' } }),
    }),
    // Literal paths defined after /{uuid}/ on purpose: registration order must not matter.
    defineRoute({
      method: 'get',
      path: '/api/v1/widgets/context/',
      operationId: 'showContext',
      summary: 'What the handler sees (a literal path next to /{uuid}/)',
      response: { status: 200, schema: ParsedEcho },
      handler: async ({ context, principal }) => ({
        context,
        fromStorage: currentContext() ?? null,
        principal,
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/widgets/secret/',
      operationId: 'showSecret',
      summary: 'Needs a permission the test principal lacks',
      permission: 'widgets_admin',
      response: { status: 200, schema: ParsedEcho },
      handler: async () => ({ secret: true }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/widgets/failures/{kind}/',
      operationId: 'fail',
      summary: 'Throws the named error',
      params: z.object({ kind: field.choice(Object.keys(FAILURES) as [keyof typeof FAILURES]) }),
      response: { status: 200, schema: ParsedEcho },
      handler: async ({ params }) => {
        throw FAILURES[params.kind]();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/ping/',
      operationId: 'ping',
      summary: 'Public',
      auth: false,
      response: { status: 200, schema: z.object({ pong: z.boolean(), principal: z.null() }) },
      handler: async ({ principal }) => ({ pong: true, principal }),
    }),
  ];
}
