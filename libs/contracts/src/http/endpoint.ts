import { z } from 'zod';

// In a browser zod compiles no validators with `new Function`: the pages' CSP has no
// 'unsafe-eval', and even zod's caught probe for it is reported as a violation. (Here, not in
// index.ts: the package is side-effect free, so only a module the web apps use keeps this.)
if ('document' in globalThis) z.config({ jitless: true });

// One HTTP endpoint, defined once: method, path, who may call it, the zod schemas of its path
// parameters, query and body, and the type of its answer. The api-gateway's routes, validation
// and OpenAPI document, and the web apps' fetch functions and query keys, all derive from it.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `public`: anyone; `admin`: an admin session; `webhook`: a signed provider call. */
export type EndpointAccess = 'public' | 'admin' | 'webhook';

declare const answerType: unique symbol;

/** The answer's type, carried by the type system only (answers are written by our own code). */
export interface AnswerOf<T> {
  readonly [answerType]?: T;
  /** What the answer is, for the OpenAPI document. */
  readonly description: string;
}

/** `answer<UserDetail>('The user with profile and analytics')`. */
export const answer = <T>(description: string): AnswerOf<T> => ({ description });

/** Any zod object schema (path parameters, query strings). */
export type ObjectSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

export interface EndpointDefinition {
  method: HttpMethod;
  /** Fastify syntax: `/api/admin/users/:id`. */
  path: string;
  access: EndpointAccess;
  /** Groups endpoints in the OpenAPI document. */
  tag: string;
  summary: string;
  description?: string;
  params?: ObjectSchema;
  query?: ObjectSchema;
  body?: z.ZodType;
  answer: AnswerOf<unknown>;
  /** Success status (default 200). */
  status?: number;
  /** Headers the answer carries beside its body, with what they mean. */
  answerHeaders?: Readonly<Record<string, string>>;
  /** `text/xml` and the like; JSON when absent. */
  answerContentType?: string;
}

/** Declares an endpoint, keeping its literal types. */
export const endpoint = <const D extends EndpointDefinition>(definition: D): D => definition;

type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : undefined;
type SchemaInput<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a handler receives: path parameters, query and body, parsed by the endpoint's schemas. */
export interface EndpointInput<D extends EndpointDefinition> {
  params: SchemaOutput<D['params']>;
  query: SchemaOutput<D['query']>;
  body: SchemaOutput<D['body']>;
}

/**
 * What a client sends: only the parts the endpoint has, before parsing (so `showTestData: true`).
 * A body the endpoint may go without (its schema accepts undefined) may be left out: nothing is sent.
 */
export type EndpointRequest<D extends EndpointDefinition> = (D['params'] extends z.ZodType
  ? { params: SchemaInput<D['params']> }
  : { params?: undefined }) &
  (D['query'] extends z.ZodType ? { query?: SchemaInput<D['query']> } : { query?: undefined }) &
  (D['body'] extends z.ZodType
    ? undefined extends SchemaInput<D['body']>
      ? { body?: SchemaInput<D['body']> }
      : { body: SchemaInput<D['body']> }
    : { body?: undefined });

/** The endpoint's answer type. */
export type EndpointAnswer<D extends EndpointDefinition> = D['answer'] extends AnswerOf<infer T> ? T : never;

export type QueryValue = string | number | boolean | null | undefined;

/** A path or query value as text: strings, numbers and booleans as written, anything else as JSON. */
const asText = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);

/** The path with its parameters filled in (URI-encoded). An unknown `:name` is an error. */
export const endpointPath = (definition: EndpointDefinition, params?: Record<string, unknown>): string =>
  definition.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) {
      throw new Error(`${definition.method} ${definition.path}: path parameter "${name}" is missing`);
    }
    return encodeURIComponent(asText(value));
  });

/** The query string (with its `?`) of the defined values; empty when there are none. */
export const queryString = (query?: Record<string, unknown>): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    search.set(key, asText(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** Path plus query string: what the browser requests. */
export const endpointUrl = <D extends EndpointDefinition>(
  definition: D,
  request?: EndpointRequest<D>,
): string => endpointPath(definition, request?.params) + queryString(request?.query);

/**
 * The TanStack Query key of a GET: the path first (the query key is the URL), then the query
 * when it has one. Invalidating by the path alone (`[endpointPath(...)]`) refreshes every query of it.
 */
export const endpointKey = <D extends EndpointDefinition>(
  definition: D,
  request?: EndpointRequest<D>,
): readonly [string] | readonly [string, Record<string, unknown>] => {
  const path = endpointPath(definition, request?.params);
  const query = request?.query as Record<string, unknown> | undefined;
  return query && Object.keys(query).length > 0 ? ([path, query] as const) : ([path] as const);
};

/** Every endpoint in a nested table of them, in declaration order. */
export const listEndpoints = (table: object): EndpointDefinition[] => {
  const found: EndpointDefinition[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if ('method' in node && 'path' in node && 'answer' in node) {
      found.push(node as EndpointDefinition);
      return;
    }
    for (const child of Object.values(node)) walk(child);
  };
  walk(table);
  return found;
};
