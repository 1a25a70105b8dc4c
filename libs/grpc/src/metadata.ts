import { acceptOrCreateRequestId, type RequestContext } from '@billing/observability';
import { Metadata } from '@grpc/grpc-js';

/** The call metadata every service reads its RequestContext from (HTTP/2 names are lower case). */
export const MetadataKeys = {
  requestId: 'x-request-id',
  organizationId: 'x-organization-id',
  apiUserId: 'x-api-user-id',
  clientSystem: 'x-client-system',
  /** The REST X-User header: the user of the calling system, recorded for audit. */
  externalUser: 'x-user',
  organizationTimeZone: 'x-organization-time-zone',
  organizationTime: 'x-organization-time',
} as const;

// The deadline travels as the call's own deadline, not as metadata.
type OptionalContextField = Exclude<keyof RequestContext, 'requestId' | 'deadline'>;

const OPTIONAL_FIELDS: ReadonlyArray<OptionalContextField> = [
  'organizationId',
  'apiUserId',
  'clientSystem',
  'externalUser',
  'organizationTimeZone',
  'organizationTime',
];

/**
 * Writes the context as call metadata. ASCII metadata values may only hold printable ASCII, and
 * X-Client-System / X-User are free text from API clients, so values travel percent-encoded
 * (ids and plain names are unchanged by that).
 */
export function toMetadata(context: RequestContext): Metadata {
  const metadata = new Metadata();
  metadata.set(MetadataKeys.requestId, acceptOrCreateRequestId(context.requestId));
  for (const field of OPTIONAL_FIELDS) {
    const value = context[field];
    if (value) metadata.set(MetadataKeys[field], encodeURIComponent(value));
  }
  return metadata;
}

/**
 * Reads the context a caller sent. A missing or unsafe request id is replaced by a new one so
 * every call can be followed in the logs; absent or empty fields are left out.
 */
export function fromMetadata(metadata: Metadata): RequestContext {
  const context: RequestContext = { requestId: acceptOrCreateRequestId(firstText(metadata, MetadataKeys.requestId)) };
  for (const field of OPTIONAL_FIELDS) {
    const value = firstText(metadata, MetadataKeys[field]);
    if (value) context[field] = decodeText(value);
  }
  return context;
}

function firstText(metadata: Metadata, key: string): string | undefined {
  const [value] = metadata.get(key);
  return typeof value === 'string' ? value : undefined;
}

/** A caller that did not percent-encode (e.g. grpcurl) may send a stray '%'; keep its value as sent. */
function decodeText(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
