/** Who is calling: the API user behind a token, and the organization it belongs to. */
export interface Principal {
  organizationId: string;
  apiUserId: string;
  apiUserName: string;
  /** Requests per minute this API user may make; 0 or less means the gateway default (60). */
  rateLimitPerMinute: number;
  permissions: readonly string[];
}
