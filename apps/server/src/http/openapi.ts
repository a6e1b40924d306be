import swagger from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { ZodApp } from './deps.js';
import { enrichOperation, securitySchemeNames, shareErrorComponent } from './openapi-enrich.js';
import { secretKeySecurityScheme } from './secret-auth.js';

/** Registers the document generator; must run before the routes so that it sees them. */
export async function registerOpenApi(app: ZodApp, version: string, maxFileBytes: number): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Onboarding verification service',
        description: 'Calls of the identity-verification onboarding flow. Errors are JSON { status, message, message_client? }; ' + 'message_client is the Spanish text the user may see.',
        version,
      },
      tags: [
        { name: 'operations', description: 'Liveness and readiness probes' },
        { name: 'grantor', description: 'Grantor (otorgante) parameters' },
        { name: 'events', description: 'Lifecycle and audit events of a transaction' },
        { name: 'faces', description: 'Server-to-server face comparison (secret server key)' },
        { name: 'identification', description: 'ID capture: reading each side, hologram, identity checks' },
        { name: 'evidence', description: 'Uploaded evidence such as the proof of address' },
        { name: 'face-video', description: 'The face video: its code, the recording and the decision' },
        { name: 'flow', description: 'The other calls of the customer flow' },
        { name: 'launcher', description: 'Credentials of the embeddable launcher' },
        { name: 'realtime', description: 'The real-time (WebRTC) recording path' },
      ],
      components: {
        securitySchemes: {
          [securitySchemeNames.publishable]: {
            type: 'apiKey',
            in: 'header',
            name: 'apikey',
            description: "The grantor's publishable flow key (the one in the flow's URL): starts and continues a customer's journey.",
          },
          [securitySchemeNames.resultLink]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Consumer-Custom-ID',
            description: 'The result-link credential of the /pdf_token flow (from the signed link sent by e-mail).',
          },
          [securitySchemeNames.transaction]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Transaction-Token',
            description:
              "The customer's browser's token for its own transaction: issued in this response header by GET /v1/params when " +
              'the call creates the transaction, valid 12 hours, bound to that transaction, its user and grantor.',
          },
          [secretKeySecurityScheme]: {
            type: 'http',
            scheme: 'bearer',
            description:
              "The grantor's secret server key (kyc-grantor secret-create; shown once, stored hashed). Not the publishable api key " +
              "of the flow's URL. The embedded demo grantor has `demo-secret` while DEMO_GRANTOR is on.",
          },
        },
      },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const method = Array.isArray(input.route.method) ? input.route.method[0]! : input.route.method;
      return { ...transformed, schema: enrichOperation(transformed.schema as Record<string, unknown>, method, input.url, maxFileBytes) };
    },
    transformObject: (documentObject) => shareErrorComponent((documentObject as { openapiObject: object }).openapiObject),
  });
}

/** Serves the generated document at GET /openapi.json. */
export function registerOpenApiRoute(app: ZodApp): void {
  app.get('/openapi.json', { schema: { hide: true }, logLevel: 'warn' }, async () => app.swagger());
}
