import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SchemaInput = Parameters<typeof zodSerializerCompiler>[0];

/**
 * Responses are described by the contracts' zod schemas. Encoding each response through zod is the single most
 * expensive step of a small request, so the schema is turned into JSON Schema once and compiled with
 * fast-json-stringify (Fastify's own serializer), which also writes only the properties the contract declares.
 * Schemas that JSON Schema cannot express keep zod's encoder.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  const schema = route.schema;
  if (schema instanceof z.ZodType) {
    try {
      const jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
      return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
    } catch {
      // fall through to zod's encoder
    }
  }
  return zodSerializerCompiler(route as SchemaInput);
};
