import { randomUUID } from 'node:crypto';
import { errorBody, type TrxHeaders } from '@kyc/contracts';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importPostalCatalogue } from '../../src/features/postal/import.js';
import { lookupPostalCode, queryPostalCode } from '../../src/features/postal/lookup.js';
import { postalRoutes } from '../../src/features/postal/routes.js';
import { sampleCatalogueFacts } from '../../src/features/postal/sample.js';
import { engines, useSampleCatalogue, type TestDatabase } from './support.js';

const { singleSettlement, severalSettlements, withEnye, unknownCode } = sampleCatalogueFacts;

const catalogue = useSampleCatalogue();

describe.each(engines)('postal-code lookup on $name', (engine) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await engine.open();
    await importPostalCatalogue(database, catalogue.sampleFile);
  });
  afterEach(async () => {
    await database.close();
  });

  describe('lookupPostalCode', () => {
    it('returns the one settlement of a code', async () => {
      expect(await lookupPostalCode(database, singleSettlement.cp)).toEqual(singleSettlement.settlements);
    });

    it('returns several settlements distinct and in Spanish alphabetical order', async () => {
      expect(await lookupPostalCode(database, severalSettlements.cp)).toEqual(severalSettlements.settlements);
      expect(await queryPostalCode(database.db, severalSettlements.cp)).toEqual(severalSettlements.settlements);
    });

    it('decodes Ñ and accents of the Latin-1 file', async () => {
      expect(await lookupPostalCode(database, withEnye.cp)).toEqual(withEnye.settlements);
    });

    it('returns an empty list for an unknown or malformed code', async () => {
      expect(await lookupPostalCode(database, unknownCode)).toEqual([]);
      expect(await lookupPostalCode(database, '6700')).toEqual([]);
      expect(await lookupPostalCode(database, "06700' or '1'='1")).toEqual([]);
    });

    it('serves repeated lookups from the cache without sharing mutable results', async () => {
      const first = await lookupPostalCode(database, severalSettlements.cp);
      first.pop();
      const second = await lookupPostalCode(database, severalSettlements.cp);
      expect(second).toEqual(severalSettlements.settlements);
      expect(Object.isFrozen(second[0])).toBe(true);
    });
  });

  describe('POST /v1/postalcodes', () => {
    let app: FastifyInstance;
    let resolved: Array<{ request: FastifyRequest; headers: TrxHeaders }>;
    const headers = () => ({ apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID() });
    const body = (cp: string) => ({ address: { cp, street: 'Álvaro Obregón 12' }, uuid: randomUUID() });

    beforeEach(async () => {
      resolved = [];
      app = Fastify();
      app.setValidatorCompiler(validatorCompiler);
      app.setSerializerCompiler(serializerCompiler);
      // Test double of the server core's api-key and transaction check.
      const resolveTransaction = async (request: FastifyRequest, trxHeaders: TrxHeaders) => {
        resolved.push({ request, headers: trxHeaders });
        if (trxHeaders.apikey !== 'demo') {
          throw Object.assign(new Error('api key no válida'), { statusCode: 401 });
        }
        return { grantorId: 'demo' };
      };
      await app.register(postalRoutes, { db: database.db, caches: database.caches, resolveTransaction });
      await app.ready();
    });
    afterEach(async () => {
      await app.close();
    });

    const post = (payload: unknown, requestHeaders: Record<string, string> = headers()) => app.inject({ method: 'POST', url: '/v1/postalcodes', headers: requestHeaders, payload: payload as object });

    it('answers the settlements of a code with one settlement, after resolving the transaction', async () => {
      const requestHeaders = headers();
      const response = await post(body(singleSettlement.cp), requestHeaders);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 200, payload: { address: singleSettlement.settlements } });
      expect(resolved).toHaveLength(1);
      expect(resolved[0]?.headers).toMatchObject(requestHeaders);
    });

    it('answers several settlements in order', async () => {
      const response = await post({ address: { cp: severalSettlements.cp }, uuid: randomUUID() });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 200, payload: { address: severalSettlements.settlements } });
    });

    it('answers 200 with an empty list for an unknown code', async () => {
      const response = await post(body(unknownCode));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 200, payload: { address: [] } });
    });

    it.each([
      ['cp too short', body('123')],
      ['cp with letters', body('abcde')],
      ['cp as a number', { address: { cp: 6700 }, uuid: randomUUID() }],
      ['no uuid', { address: { cp: '06700' } }],
      ['no address', { uuid: randomUUID() }],
    ])('refuses a bad body (%s) with 400 before resolving the transaction', async (_name, payload) => {
      const response = await post(payload);
      expect(response.statusCode).toBe(400);
      expect(resolved).toHaveLength(0);
    });

    it('refuses malformed JSON with 400', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/postalcodes',
        headers: { ...headers(), 'content-type': 'application/json' },
        payload: '{"address": {"cp": "06700"',
      });
      expect(response.statusCode).toBe(400);
      expect(resolved).toHaveLength(0);
    });

    it('refuses missing transaction headers with 400', async () => {
      const response = await post(body('06700'), { apikey: 'demo' });
      expect(response.statusCode).toBe(400);
    });

    it('accepts documentation-only schema additions', async () => {
      const documented = Fastify();
      documented.setValidatorCompiler(validatorCompiler);
      documented.setSerializerCompiler(serializerCompiler);
      await postalRoutes(documented, {
        db: database.db,
        caches: database.caches,
        resolveTransaction: async () => undefined,
        openApi: { tags: ['postal-codes'], errorResponses: { '4xx': errorBody, '5xx': errorBody } },
      });
      const response = await documented.inject({ method: 'POST', url: '/v1/postalcodes', headers: headers(), payload: body('06700') });
      expect(response.json()).toEqual({ status: 200, payload: { address: singleSettlement.settlements } });
      await documented.close();
    });

    it('passes on the refusal of resolveTransaction', async () => {
      const response = await post(body('06700'), { ...headers(), apikey: 'otra' });
      expect(response.statusCode).toBe(401);
      expect(resolved).toHaveLength(1);
    });
  });
});
