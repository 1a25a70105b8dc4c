// In @billing/rest-representation, beside the account that embeds draft lines.
export { type DraftLineRepresentation, presentDraftLine } from '@billing/rest-representation';
