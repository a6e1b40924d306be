import swagger from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { ZodApp } from './deps.js';
import { secretKeySecurityScheme } from './secret-auth.js';

/** Registers the document generator; must run before the routes so that it sees them. */
export async function registerOpenApi(app: ZodApp, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Onboarding verification service',
        description:
          'Calls of the identity-verification onboarding flow. Errors are JSON { status, message, message_client? }; ' +
          'message_client is the Spanish text the user may see.',
        version,
      },
      tags: [
        { name: 'operations', description: 'Liveness and readiness probes' },
        { name: 'grantor', description: 'Grantor (otorgante) parameters' },
        { name: 'events', description: 'Lifecycle and audit events of a transaction' },
        { name: 'faces', description: 'Server-to-server face comparison (secret server key)' },
      ],
      components: {
        securitySchemes: {
          [secretKeySecurityScheme]: {
            type: 'http',
            scheme: 'bearer',
            description:
              "The grantor's secret server key (kyc-grantor secret-create; shown once, stored hashed). Not the publishable api key " +
              'of the flow\'s URL. The embedded demo grantor has `demo-secret` while DEMO_GRANTOR is on.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
}

/** Serves the generated document at GET /openapi.json. */
export function registerOpenApiRoute(app: ZodApp): void {
  app.get('/openapi.json', { schema: { hide: true }, logLevel: 'warn' }, async () => app.swagger());
}
