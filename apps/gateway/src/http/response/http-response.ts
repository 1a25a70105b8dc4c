/**
 * What a handler returns when the route's fixed status and JSON body do not fit: another status
 * (202 for a started export), extra headers, or a non-JSON body (a CSV download). A string or
 * Buffer body is sent as is with `contentType`, a Readable is streamed with it; anything else is
 * sent as JSON.
 */
export class HttpResponse {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly options: { headers?: Record<string, string>; contentType?: string } = {},
  ) {}
}
