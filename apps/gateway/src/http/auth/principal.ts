/** Who is calling: the API user behind a token, and the organization it belongs to. */
export interface Principal {
  organizationId: string;
  apiUserId: string;
  apiUserName: string;
  /** Requests per minute this API user may make; 0 or less means the gateway default (60). */
  rateLimitPerMinute: number;
  permissions: readonly string[];
  /** The organization's IANA time zone; every service does its calendar arithmetic in it. */
  organizationTimeZone?: string;
  /**
   * Test mode only: the organization's test clock time (ISO 8601) at authentication. A principal
   * carrying it is never cached (see CachingAuthenticator), so it is current for its request.
   */
  organizationTime?: string;
}
