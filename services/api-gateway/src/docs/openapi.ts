import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ALL_ENDPOINTS, type EndpointDefinition } from '@sprout/contracts';
import { z } from 'zod';
import { SESSION_COOKIE } from '../auth/session.service';

const OPENAPI_PATH = 'api/docs';

type JsonSchema = Record<string, unknown>;

/** A request schema as OpenAPI 3.0 JSON schema, as a client writes it (before parsing). */
const jsonSchemaOf = (schema: z.ZodType): JsonSchema =>
  z.toJSONSchema(schema, { io: 'input', target: 'openapi-3.0', unrepresentable: 'any' });

/** The parameters of one location (path or query) out of an object schema's properties. */
const parametersOf = (schema: z.ZodType | undefined, location: 'path' | 'query'): JsonSchema[] => {
  if (schema === undefined) return [];
  const object = jsonSchemaOf(schema);
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
};

const operationOf = (endpoint: EndpointDefinition): JsonSchema => {
  const status = String(endpoint.status ?? 200);
  const headers = Object.fromEntries(
    Object.entries(endpoint.answerHeaders ?? {}).map(([name, description]) => [
      name,
      { description, schema: { type: 'string' } },
    ]),
  );
  return {
    tags: [endpoint.tag],
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    parameters: [...parametersOf(endpoint.params, 'path'), ...parametersOf(endpoint.query, 'query')],
    ...(endpoint.body
      ? { requestBody: { content: { 'application/json': { schema: jsonSchemaOf(endpoint.body) } } } }
      : {}),
    responses: {
      [status]: {
        description: endpoint.answer.description,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
      },
      ...(endpoint.params || endpoint.query || endpoint.body
        ? { '400': { description: 'The request does not fit: the message says what is wrong' } }
        : {}),
      ...(endpoint.access === 'admin' ? { '401': { description: 'No admin session' } } : {}),
    },
    ...(endpoint.access === 'admin' ? { security: [{ [SESSION_COOKIE]: [] }] } : {}),
  };
};

/** The OpenAPI document of the endpoint table (`/api/admin/users/:id` written `{id}`). */
const buildOpenApiDocument = (endpoints: readonly EndpointDefinition[]): OpenAPIObject => {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const endpoint of endpoints) {
    if (endpoint.access === 'webhook') continue;
    const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operationOf(endpoint) };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Sprout API',
      description: 'The HTTP API of the Sprout web apps (public site and admin console).',
      version: '1.0',
    },
    components: {
      securitySchemes: {
        [SESSION_COOKIE]: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
      },
    },
    paths,
  };
};

/**
 * The Swagger UI at /api/docs and the document at /api/docs-json, generated from the endpoint
 * table of @sprout/contracts. Must run before the app listens (it adds routes).
 */
export const setupOpenApi = (app: NestFastifyApplication): void => {
  const document = buildOpenApiDocument(ALL_ENDPOINTS);
  SwaggerModule.setup(OPENAPI_PATH, app, () => document, {
    jsonDocumentUrl: `${OPENAPI_PATH}-json`,
    yamlDocumentUrl: `${OPENAPI_PATH}-yaml`,
  });
};
