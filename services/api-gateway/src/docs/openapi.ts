import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type SchemaObject, SwaggerModule } from '@nestjs/swagger';
import { z } from 'zod';

export const OPENAPI_PATH = 'api/docs';

/**
 * OpenAPI for every controller: the Swagger UI at /api/docs, the document at /api/docs-json.
 * Built on first request. Must run before the app listens (it adds routes).
 */
export const setupOpenApi = (app: NestFastifyApplication): void => {
  const config = new DocumentBuilder()
    .setTitle('Sprout API')
    .setDescription('The HTTP API of the Sprout web apps (public site and admin console).')
    .setVersion('1.0')
    .addCookieAuth('sprout_session')
    .build();
  SwaggerModule.setup(OPENAPI_PATH, app, () => SwaggerModule.createDocument(app, config), {
    jsonDocumentUrl: `${OPENAPI_PATH}-json`,
    yamlDocumentUrl: `${OPENAPI_PATH}-yaml`,
  });
};

/** A zod request schema as an OpenAPI 3.0 schema object, for @ApiBody({ schema }). */
export const openApiSchemaOf = (schema: z.ZodType): SchemaObject =>
  z.toJSONSchema(schema, { io: 'input', target: 'openapi-3.0' }) as SchemaObject;
