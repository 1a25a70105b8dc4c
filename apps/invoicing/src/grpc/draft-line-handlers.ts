import { pageSpec } from '@billing/domain-kit';
import type { UnaryHandlers } from '@billing/grpc';
import type { invoicingV1 } from '@billing/proto';
import {
  createDraftLine,
  type DraftLineDeps,
  deleteDraftLine,
  getDraftLine,
  listDraftLines,
  updateDraftLine,
} from '../use-cases/draft-lines.js';
import { draftLineMessage, draftLineWrite } from './draft-line-mapper.js';

type DraftLineMethod = 'createDraftLine' | 'getDraftLine' | 'listDraftLines' | 'updateDraftLine' | 'deleteDraftLine';

/** The draft-line methods of InvoicingService, as unaryService takes them. */
export type DraftLineHandlers = Required<
  Pick<UnaryHandlers<typeof invoicingV1.InvoicingServiceService>, DraftLineMethod>
>;

/**
 * Transport only: decode, call the use case, encode. Spread into the InvoicingService handlers:
 * `unaryService(invoicingV1.InvoicingServiceService, { ...draftLineHandlers(deps), ... })`.
 */
export function draftLineHandlers(deps: DraftLineDeps): DraftLineHandlers {
  return {
    createDraftLine: async (request, context) => {
      const write = draftLineWrite(request.line, request.present_fields);
      return { line: draftLineMessage(await createDraftLine(deps, context, write)) };
    },
    getDraftLine: async (request, context) => ({
      line: draftLineMessage(await getDraftLine(deps, context, request.uuid)),
    }),
    listDraftLines: async (request, context) => {
      const { count, lines } = await listDraftLines(deps, context, {
        page: pageSpec(request.page),
        account: request.account ?? null,
      });
      return { count, lines: lines.map(draftLineMessage) };
    },
    updateDraftLine: async (request, context) => {
      const write = draftLineWrite(request.line, request.present_fields);
      const view = await updateDraftLine(deps, context, request.uuid, write, request.replace);
      return { line: draftLineMessage(view) };
    },
    deleteDraftLine: async (request, context) => {
      await deleteDraftLine(deps, context, request.uuid);
      return {};
    },
  };
}
