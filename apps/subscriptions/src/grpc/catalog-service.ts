import { pageSpec } from '@billing/domain-kit';
import { type GrpcService, unaryService } from '@billing/grpc';
import { catalogV1 } from '@billing/proto';
import { calculatePrice } from '../use-cases/calculate-price.js';
import type { SubscriptionsDeps } from '../use-cases/deps.js';
import {
  createPlanTerms,
  deletePlanTerms,
  getPlanTerms,
  listPlanTerms,
  updatePlanTerms,
} from '../use-cases/plan-terms.js';
import { createPlan, getPlan, listPlans, updatePlan } from '../use-cases/plans.js';
import { planMessage, planTermsMessage, planTermsWrite, planWrite } from './catalog-mapper.js';

/** Transport only: decode, call the use case, encode. */
export function catalogService(deps: SubscriptionsDeps): GrpcService {
  return unaryService(catalogV1.CatalogServiceService, {
    createPlan: async (request, context) => ({
      plan: planMessage(await createPlan(deps, context, planWrite(request.plan, request.present_fields))),
    }),
    getPlan: async (request, context) => ({ plan: planMessage(await getPlan(deps, context, request.uuid)) }),
    listPlans: async (request, context) => {
      const { count, plans } = await listPlans(deps, context, pageSpec(request.page));
      return { count, plans: plans.map(planMessage) };
    },
    updatePlan: async (request, context) => {
      const write = planWrite(request.plan, request.present_fields);
      return { plan: planMessage(await updatePlan(deps, context, request.uuid, write, request.replace)) };
    },
    createPlanTerms: async (request, context) => {
      const write = planTermsWrite(request.plan_terms, request.present_fields);
      return { plan_terms: planTermsMessage(await createPlanTerms(deps, context, write)) };
    },
    getPlanTerms: async (request, context) => ({
      plan_terms: planTermsMessage(await getPlanTerms(deps, context, request.uuid)),
    }),
    listPlanTerms: async (request, context) => {
      const { count, planTerms } = await listPlanTerms(deps, context, request.filter ?? {}, pageSpec(request.page));
      return { count, plan_terms: planTerms.map(planTermsMessage) };
    },
    updatePlanTerms: async (request, context) => {
      const write = planTermsWrite(request.plan_terms, request.present_fields);
      return { plan_terms: planTermsMessage(await updatePlanTerms(deps, context, request.uuid, write)) };
    },
    deletePlanTerms: async (request, context) => {
      await deletePlanTerms(deps, context, request.uuid);
      return {};
    },
    calculatePrice: async (request, context) =>
      calculatePrice(deps, context, {
        terms: request.terms,
        quantity: request.quantity,
        account: request.account ?? null,
        buyer: { country: request.buyer?.country ?? '', vat_number: request.buyer?.vat_number ?? '' },
        seller_country: request.seller_country,
      }),
  });
}
