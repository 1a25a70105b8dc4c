// Presented by @billing/rest-representation (webhook deliveries show plan terms as the API does).
export { presentPlan, presentPlanTerms } from '@billing/rest-representation';

/**
 * A validated body as protobuf: every sent field is named in `present_fields`; a sent null travels
 * as an unset optional (the service reads "present but unset" as null).
 */
export function catalogInput<Input>(body: Record<string, unknown>): { input: Input; present_fields: string[] } {
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (value !== null && value !== undefined) input[name] = value;
  }
  return { input: input as Input, present_fields: Object.keys(body) };
}
