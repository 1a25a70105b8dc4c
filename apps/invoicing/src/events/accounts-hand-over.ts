import { DRAFT_LINE_EVENT_TYPES } from '@billing/reference-data';
import { INVOICE_EVENT_TYPES } from './invoice-events.js';

/**
 * The events the accounts read models are built from, handed straight to them after each commit
 * (readModelHandOver of @billing/read-model-client): they embed an account's draft lines in its
 * reads and answer the account list's `balance` filter and the delete rule, so a client reads its
 * write back at once. Their stream consumers read the same subjects.
 */
export const ACCOUNTS_READ_MODEL_EVENT_TYPES = [...DRAFT_LINE_EVENT_TYPES, ...INVOICE_EVENT_TYPES];
