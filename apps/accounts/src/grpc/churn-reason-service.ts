import { pageSpec, type Write } from '@billing/domain-kit';
import { type GrpcService, unaryService } from '@billing/grpc';
import { accountsV1 } from '@billing/proto';
import type { ChurnReasonFields } from '../domain/churn-reason.js';
import {
  createChurnReason,
  deleteChurnReason,
  getChurnReason,
  getChurnReasons,
  listChurnReasons,
  updateChurnReason,
} from '../use-cases/churn-reasons.js';
import type { AccountsDeps } from '../use-cases/deps.js';

/** A REST write: the present field names plus the message; present but unset is null. */
function churnReasonWrite(
  input: accountsV1.ChurnReasonInput | undefined,
  presentFields: string[],
): Write<ChurnReasonFields> {
  const message = (input ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of presentFields) values[field] = message[field] ?? null;
  return { values: values as Write<ChurnReasonFields>['values'], present: new Set(presentFields) };
}

/** Transport only: decode, call the use case, encode. */
export function churnReasonService(deps: AccountsDeps): GrpcService {
  return unaryService(accountsV1.ChurnReasonServiceService, {
    createChurnReason: async (request, context) => ({
      churn_reason: await createChurnReason(
        deps,
        context,
        churnReasonWrite(request.churn_reason, request.present_fields),
      ),
    }),
    getChurnReason: async (request, context) => ({
      churn_reason: await getChurnReason(deps, context, request.uuid),
    }),
    listChurnReasons: async (request, context) => {
      const { count, reasons } = await listChurnReasons(deps, context, request.is_active, pageSpec(request.page));
      return { count, churn_reasons: reasons };
    },
    updateChurnReason: async (request, context) => ({
      churn_reason: await updateChurnReason(
        deps,
        context,
        request.uuid,
        churnReasonWrite(request.churn_reason, request.present_fields),
        request.replace,
      ),
    }),
    deleteChurnReason: async (request, context) => {
      await deleteChurnReason(deps, context, request.uuid);
      return {};
    },
    getChurnReasons: async (request, context) => ({
      churn_reasons: await getChurnReasons(deps, context, request.uuids),
    }),
  });
}
