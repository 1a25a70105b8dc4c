import type { WebhookEventName } from './event-names.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface AttemptView {
  attempt_date: Date;
  response_status: number | null;
  error: string;
  duration_ms: number;
}

/** A delivery as its log shows it. */
export interface DeliveryView {
  uuid: string;
  webhook: string;
  event: WebhookEventName;
  event_id: string;
  status: DeliveryStatus;
  next_attempt_date: Date | null;
  created_date: Date;
  /** The exact body sent, JSON text. */
  payload: string;
  attempts: AttemptView[];
}

/** One event to deliver: its public name, the producer's event id and the body's `data`. */
export interface WebhookEvent {
  organizationId: string;
  eventId: string;
  name: WebhookEventName;
  data: unknown;
}

/** The body every attempt sends (gaps.md §12). */
export const deliveryBody = (event: Pick<WebhookEvent, 'name' | 'data'>): string =>
  JSON.stringify({ event: event.name, data: event.data });
