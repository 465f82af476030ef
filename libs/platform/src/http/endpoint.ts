import {
  BadRequestException,
  type ExecutionContext,
  Header,
  HttpCode,
  RequestMapping,
  RequestMethod,
  SetMetadata,
  applyDecorators,
  createParamDecorator,
} from '@nestjs/common';
import type { EndpointAnswer, EndpointDefinition, EndpointInput } from '@sprout/contracts';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { JsonText } from './json-text';

// Nest routes from the endpoint table of @sprout/contracts: `@Endpoint(api.users.detail)` maps the
// handler to its method and path, and `@Input()` hands it the parsed path parameters, query and
// body. Bad input is one kind of answer everywhere: a 400 whose message says what is wrong.

export const ENDPOINT_METADATA = 'sprout:endpoint';

/** What a handler may return: the answer, or JSON text of it that Postgres wrote. */
export type EndpointReply<D extends EndpointDefinition> = EndpointAnswer<D> | JsonText<EndpointAnswer<D>>;

type EndpointHandler<D extends EndpointDefinition> = (
  ...args: never[]
) => Promise<EndpointReply<D>> | EndpointReply<D>;

/**
 * Serves the handler at the endpoint's method and path (the controller has no path prefix). The
 * handler's return type is checked against the endpoint's answer.
 */
export const Endpoint =
  <D extends EndpointDefinition>(definition: D) =>
  // Only `value` is typed: a full TypedPropertyDescriptor would make the check invariant.
  (target: object, key: string | symbol, descriptor: { value?: EndpointHandler<D> }): void => {
    applyDecorators(
      RequestMapping({ path: definition.path, method: RequestMethod[definition.method] }),
      HttpCode(definition.status ?? 200),
      SetMetadata(ENDPOINT_METADATA, definition),
      ...(definition.answerContentType ? [Header('Content-Type', definition.answerContentType)] : []),
    )(target, key, descriptor as PropertyDescriptor);
  };

/** The endpoint a handler serves, or undefined for routes outside the table (probes, static files). */
export const endpointOf = (handler: object): EndpointDefinition | undefined =>
  Reflect.getMetadata(ENDPOINT_METADATA, handler) as EndpointDefinition | undefined;

type Part = 'params' | 'query' | 'body';

/**
 * One readable sentence out of zod's issues. A field's issue is prefixed with its name
 * ("limit: must be a whole number from 1 to 500"), except path parameters, whose messages name
 * them ("User id must be a UUID"), and the screens' own prompts ("Please enter ...").
 */
export const describeInputIssues = (part: Part, error: z.ZodError): string => {
  const messages = error.issues.map((issue) =>
    part === 'params' || issue.path.length === 0 || issue.message.startsWith('Please')
      ? issue.message
      : `${issue.path.join('.')}: ${issue.message}`,
  );
  return [...new Set(messages)].join('; ');
};

const parsePart = (part: Part, schema: z.ZodType | undefined, value: unknown): unknown => {
  if (schema === undefined) return undefined;
  // A request without a body or query string is read as an empty object.
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new BadRequestException({
    statusCode: 400,
    error: 'Bad Request',
    message: describeInputIssues(part, result.error),
  });
};

/** Parses what a request carries with the endpoint's schemas (a 400 when it does not fit). */
export const parseEndpointInput = <D extends EndpointDefinition>(
  definition: D,
  request: { params?: unknown; query?: unknown; body?: unknown },
): EndpointInput<D> =>
  ({
    params: parsePart('params', definition.params, request.params),
    query: parsePart('query', definition.query, request.query),
    body: parsePart('body', definition.body, request.body),
  }) as EndpointInput<D>;

/** The handler's parsed input: `@Input() input: EndpointInput<typeof api.users.detail>`. */
export const Input = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const definition = endpointOf(context.getHandler());
  if (definition === undefined) throw new Error('@Input() is used on a handler without @Endpoint()');
  return parseEndpointInput(definition, context.switchToHttp().getRequest<FastifyRequest>());
});
