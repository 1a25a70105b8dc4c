import type { catalogV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, type Route } from '../../http/index.js';
import { pageOf } from '../shared/page-of.js';
import { UuidParams } from '../shared/path-params.js';
import { catalogInput, presentPlan, presentPlanTerms } from './catalog-representation.js';
import {
  PlanBody,
  PlanPatchBody,
  PlanSchema,
  PlanTermsBody,
  PlanTermsFilters,
  PlanTermsPatchBody,
  PlanTermsSchema,
} from './catalog-schemas.js';

const PLAN_TAGS = ['plans'];
const TERMS_TAGS = ['planterms'];

/** gaps.md §5: plans (no DELETE) and plan terms (PATCH of active, code, price, revenue_group). */
export function catalogRoutes({ catalog }: ServiceClients): Route[] {
  const listPlans = defineListRoute({
    path: '/api/v1/plans/',
    operationId: 'listPlans',
    summary: 'List plans, each with its plan terms',
    tags: PLAN_TAGS,
    item: PlanSchema,
    ordering: ['name', 'code', 'created_date'],
    handler: async ({ page }) => {
      const reply = await catalog.call('listPlans', { page: pageOf(page) });
      return { count: reply.count, results: reply.plans.map(presentPlan) };
    },
  });

  const createPlan = defineRoute({
    method: 'post',
    path: '/api/v1/plans/',
    operationId: 'createPlan',
    summary: 'Create a plan',
    tags: PLAN_TAGS,
    body: PlanBody,
    response: { status: 201, schema: PlanSchema },
    handler: async ({ body }) => {
      const { input, present_fields } = catalogInput<catalogV1.PlanInput>(body);
      return presentPlan((await catalog.call('createPlan', { plan: input, present_fields })).plan!);
    },
  });

  const getPlan = defineRoute({
    method: 'get',
    path: '/api/v1/plans/{uuid}/',
    operationId: 'getPlan',
    summary: 'One plan with its plan terms',
    tags: PLAN_TAGS,
    params: UuidParams,
    response: { status: 200, schema: PlanSchema },
    handler: async ({ params }) => presentPlan((await catalog.call('getPlan', { uuid: params.uuid })).plan!),
  });

  const updatePlan = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: '/api/v1/plans/{uuid}/',
      operationId: method === 'put' ? 'replacePlan' : 'updatePlan',
      summary: method === 'put' ? 'Update a plan (required fields as on create)' : 'Update some fields of a plan',
      tags: PLAN_TAGS,
      params: UuidParams,
      body: method === 'put' ? PlanBody : PlanPatchBody,
      response: { status: 200, schema: PlanSchema },
      handler: async ({ params, body }) => {
        const { input, present_fields } = catalogInput<catalogV1.PlanInput>(body);
        const reply = await catalog.call('updatePlan', {
          uuid: params.uuid,
          plan: input,
          present_fields,
          replace: method === 'put',
        });
        return presentPlan(reply.plan!);
      },
    });

  const listTerms = defineListRoute({
    path: '/api/v1/planterms/',
    operationId: 'listPlanTerms',
    summary: 'List plan terms',
    tags: TERMS_TAGS,
    item: PlanTermsSchema,
    query: PlanTermsFilters,
    ordering: ['code', 'price', 'created_date'],
    handler: async ({ query, page }) => {
      const reply = await catalog.call('listPlanTerms', {
        page: pageOf(page),
        filter: { plan: query.plan, active: query.active, currency: query.currency },
      });
      return { count: reply.count, results: reply.plan_terms.map(presentPlanTerms) };
    },
  });

  const createTerms = defineRoute({
    method: 'post',
    path: '/api/v1/planterms/',
    operationId: 'createPlanTerms',
    summary: 'Create plan terms (active)',
    tags: TERMS_TAGS,
    body: PlanTermsBody,
    response: { status: 201, schema: PlanTermsSchema },
    handler: async ({ body }) => {
      const { input, present_fields } = catalogInput<catalogV1.PlanTermsInput>(body);
      return presentPlanTerms(
        (await catalog.call('createPlanTerms', { plan_terms: input, present_fields })).plan_terms!,
      );
    },
  });

  const getTerms = defineRoute({
    method: 'get',
    path: '/api/v1/planterms/{uuid}/',
    operationId: 'getPlanTerms',
    summary: 'One plan terms',
    tags: TERMS_TAGS,
    params: UuidParams,
    response: { status: 200, schema: PlanTermsSchema },
    handler: async ({ params }) =>
      presentPlanTerms((await catalog.call('getPlanTerms', { uuid: params.uuid })).plan_terms!),
  });

  const updateTerms = defineRoute({
    method: 'patch',
    path: '/api/v1/planterms/{uuid}/',
    operationId: 'updatePlanTerms',
    summary: 'Change active, code, price or revenue_group of plan terms',
    description: 'currency, backwards_charging, plan, interval_type and interval_count cannot be changed (400).',
    tags: TERMS_TAGS,
    params: UuidParams,
    body: PlanTermsPatchBody,
    response: { status: 200, schema: PlanTermsSchema },
    handler: async ({ params, body }) => {
      const { input, present_fields } = catalogInput<catalogV1.PlanTermsInput>(body);
      const reply = await catalog.call('updatePlanTerms', { uuid: params.uuid, plan_terms: input, present_fields });
      return presentPlanTerms(reply.plan_terms!);
    },
  });

  const deleteTerms = defineRoute({
    method: 'delete',
    path: '/api/v1/planterms/{uuid}/',
    operationId: 'deletePlanTerms',
    summary: 'Delete plan terms no subscription uses (else 400: set active false instead)',
    tags: TERMS_TAGS,
    params: UuidParams,
    response: { status: 204 },
    handler: async ({ params }) => {
      await catalog.call('deletePlanTerms', { uuid: params.uuid });
      return undefined;
    },
  });

  return [
    listPlans,
    createPlan,
    getPlan,
    updatePlan('put'),
    updatePlan('patch'),
    listTerms,
    createTerms,
    getTerms,
    updateTerms,
    deleteTerms,
  ];
}
