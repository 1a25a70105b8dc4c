import type { IncomingHttpHeaders } from 'node:http';
import type { RequestContext } from '@billing/observability';
import type { Request } from 'express';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { ListPage } from '../pagination/page-envelope.js';
import type { PageRequest } from '../pagination/page-request.js';
import type { HttpResponse } from '../response/http-response.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type SuccessStatus = 200 | 201 | 202 | 204;
/** Path parameters and query strings are described by zod objects (OpenAPI needs named members). */
export type ObjectSchema = z.ZodObject;
/**
 * The body key of a refusal (a FAILED_PRECONDITION from a service): `detail` as everywhere, or
 * `error` for the invoice actions whose contract says `{"error": "..."}`.
 */
export type RefusalBodyKey = 'detail' | 'error';

type Parsed<Schema, Fallback> = Schema extends z.ZodType ? z.output<Schema> : Fallback;
type Awaitable<T> = T | Promise<T>;

/** Everything a handler gets, already authenticated, limited and validated. */
export interface RouteInput<Params, Query, Body, Auth extends boolean> {
  params: Parsed<Params, Record<string, string>>;
  query: Parsed<Query, Record<string, string | string[]>>;
  body: Parsed<Body, undefined>;
  headers: IncomingHttpHeaders;
  /** The caller; null only on routes with `auth: false`. */
  principal: Auth extends false ? null : Principal;
  /** Request id, organization, API user, X-Client-System and X-User of this request. */
  context: RequestContext;
  req: Request;
}

export interface ListRouteInput<Params, Query, Auth extends boolean>
  extends RouteInput<Params, Query, undefined, Auth> {
  page: PageRequest;
}

interface RouteCommon<Params, Query, Auth extends boolean> {
  /** OpenAPI style, with the trailing slash: `/api/v1/accounts/{code}/`. */
  path: string;
  /**
   * More paths answering the same way, e.g. the underscore twin of a hyphenated action
   * (`/api/v1/subscriptions/total_mrr/` for `/total-mrr/`). Same parameters as `path`.
   */
  aliases?: readonly string[];
  operationId: string;
  summary: string;
  description?: string;
  tags?: readonly string[];
  /** Whether a token is required (default true). */
  auth?: Auth;
  /** A permission the principal must hold, else 403. */
  permission?: string;
  /** Path parameters; a value that fails is 404 (no such object), as in DRF. */
  params?: Params;
  /** Query parameters (filters); a value that fails is 400 naming the parameter. */
  query?: Query;
  /** Honour the `Fields` request header by projecting the response object(s). */
  fieldsHeader?: boolean;
  refusalBodyKey?: RefusalBodyKey;
  deprecated?: boolean;
}

export interface RouteDefinition<Params, Query, Body, Response, Auth extends boolean>
  extends RouteCommon<Params, Query, Auth> {
  method: HttpMethod;
  /** The JSON body; a body that fails is 400 in DRF's shape. Routes without one ignore the body. */
  body?: Body;
  response: {
    status: SuccessStatus;
    /** Describes the body for OpenAPI and types the handler's result; omit for 204. */
    schema?: Response;
    description?: string;
  };
  handler: (
    input: RouteInput<Params, Query, Body, Auth>,
  ) => Awaitable<(Response extends z.ZodType ? z.input<Response> : undefined) | HttpResponse>;
}

export interface ListRouteDefinition<Params, Query, Item extends z.ZodType, Auth extends boolean>
  extends RouteCommon<Params, Query, Auth> {
  /** Schema of one result. */
  item: Item;
  /** Fields `?ordering=` may name (with or without `-`). */
  ordering?: readonly string[];
  /** Returns the total and the requested page; the gateway builds the envelope and its links. */
  handler: (input: ListRouteInput<Params, Query, Auth>) => Awaitable<ListPage<z.input<Item>>>;
}

/** Any input, as the pipeline passes it. */
export interface AnyRouteInput {
  params: unknown;
  query: unknown;
  body: unknown;
  headers: IncomingHttpHeaders;
  principal: Principal | null;
  context: RequestContext;
  req: Request;
  page?: PageRequest;
}

/** A defined route with its types erased, as createHttpApp and the OpenAPI builder read it. */
export interface Route {
  readonly method: HttpMethod;
  readonly path: string;
  readonly aliases: readonly string[];
  readonly operationId: string;
  readonly summary: string;
  readonly description: string | undefined;
  readonly tags: readonly string[];
  readonly auth: boolean;
  readonly permission: string | undefined;
  readonly params: ObjectSchema | undefined;
  readonly query: ObjectSchema | undefined;
  readonly body: z.ZodType | undefined;
  readonly response: { status: SuccessStatus; schema: z.ZodType | undefined; description: string | undefined };
  /** Set on list routes: their result is a ListPage to wrap in the envelope. */
  readonly list: { item: z.ZodType; ordering: readonly string[] } | undefined;
  readonly fieldsHeader: boolean;
  readonly refusalBodyKey: RefusalBodyKey;
  readonly deprecated: boolean;
  readonly handler: (input: AnyRouteInput) => Promise<unknown>;
}
