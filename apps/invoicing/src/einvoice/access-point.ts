import { DELIVERY_ATTEMPT_TIMEOUT_MS } from '@billing/domain-kit';
import type { Endpoint } from '../domain/einvoice/endpoint.js';

/** Where e-invoices are handed to the Peppol network: the access point's URL and our token there. */
export interface AccessPointConfig {
  url: string;
  token: string;
}

/** One e-invoice for the access point. */
export interface AccessPointDocument {
  /** The invoice's uuid: the idempotency key, so a retry after a lost answer is not a second invoice. */
  invoiceId: string;
  xml: string;
  sender: Endpoint;
  receiver: Endpoint;
  intermediator: string | null;
}

/** The access point's answer: its HTTP status, or null when none came (refused, timed out). */
export interface AccessPointReply {
  status: number | null;
  error: string | null;
}

export type AccessPoint = (document: AccessPointDocument) => Promise<AccessPointReply>;

const participant = (endpoint: Endpoint) => `iso6523-actorid-upis::${endpoint.scheme}:${endpoint.id}`;

/**
 * An HTTP access point: POST of the UBL document (application/xml) with the token as a bearer
 * token; sender and receiver as Peppol participant identifiers in headers (the document carries
 * them too), the account's e-invoicing operator when it names one.
 */
export function httpAccessPoint(config: AccessPointConfig): AccessPoint {
  return async (document) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${config.token}`,
      'content-type': 'application/xml; charset=utf-8',
      'idempotency-key': document.invoiceId,
      'x-peppol-sender': participant(document.sender),
      'x-peppol-receiver': participant(document.receiver),
    };
    if (document.intermediator !== null) headers['x-einvoicing-intermediator'] = document.intermediator;
    try {
      const response = await fetch(config.url, {
        method: 'POST',
        headers,
        body: document.xml,
        signal: AbortSignal.timeout(DELIVERY_ATTEMPT_TIMEOUT_MS),
      });
      // The body is not needed; reading it frees the connection.
      await response.arrayBuffer().catch(() => undefined);
      return { status: response.status, error: response.ok ? null : `HTTP ${response.status}` };
    } catch (error) {
      return { status: null, error: error instanceof Error ? error.message : String(error) };
    }
  };
}
