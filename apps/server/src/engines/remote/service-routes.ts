import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OcrEngineProvider } from '../ocr/provider.js';
import type { FaceEngineProvider } from '../face/provider.js';
import { FaceEngineError, type AnalysisMode, type RgbImage } from '../face/types.js';
import { OcrImageError } from '../ocr/engine.js';
import type { OcrInput } from '../ocr/types.js';
import { decodeEngineMessage, encodeEngineMessage, engineBodyLimit, engineContentType, engineServicePaths, type EngineFailureKind, type EngineServiceOp } from './protocol.js';

function sameToken(given: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function fail(reply: FastifyReply, status: number, kind: EngineFailureKind, message: string) {
  return reply.code(status).type('application/json').send(JSON.stringify({ kind, message }));
}

/**
 * The engines of this worker served to the API nodes (ENGINE_SERVICE_TOKEN set on a worker): each call runs on this
 * process's own providers, so their slots and bounded queue decide; a call they cannot take is 503 `busy`. The token
 * is the only credential: the routes are for the private network between nodes (docs/decisions.md).
 */
export function registerEngineService(app: FastifyInstance, engines: { ocr: OcrEngineProvider; face: FaceEngineProvider }, token: string): void {
  app.register(async (scope) => {
    scope.addContentTypeParser(engineContentType, { parseAs: 'buffer', bodyLimit: engineBodyLimit }, (_request, body, done) => done(null, body));
    scope.addHook('onRequest', async (request, reply) => {
      if (!sameToken(request.headers.authorization, token)) return fail(reply, 401, 'failed', 'engine service token missing or wrong');
    });
    const serve = <A extends unknown[]>(op: EngineServiceOp, run: (...args: A) => Promise<unknown | undefined>) =>
      scope.post(engineServicePaths[op], { schema: { hide: true }, bodyLimit: engineBodyLimit }, async (request: FastifyRequest, reply) => {
        if (!Buffer.isBuffer(request.body)) return fail(reply, 415, 'failed', `send ${engineContentType}`);
        let args: A;
        try {
          args = decodeEngineMessage<A>(request.body);
        } catch {
          return fail(reply, 400, 'failed', 'the arguments could not be decoded');
        }
        try {
          const result = await run(...args);
          if (result === undefined) return fail(reply, 503, 'busy', 'Busy: every engine slot of this worker is taken');
          return reply.type(engineContentType).send(encodeEngineMessage(result));
        } catch (error) {
          if (error instanceof OcrImageError) return fail(reply, 422, 'image', error.message);
          if (error instanceof FaceEngineError) return fail(reply, 422, 'face', error.message);
          throw error;
        }
      });
    serve('ocrRead', (input: OcrInput) => engines.ocr.withSlot((e) => e.read(input)));
    serve('ocrReadProof', (image: Buffer) => engines.ocr.withSlot((e) => e.readProof(image)));
    serve('faceAnalyse', (image: RgbImage, mode: AnalysisMode) => engines.face.withSlot((e) => e.analyse(image, mode)));
    serve('faceTrack', (frames: RgbImage[]) => engines.face.withSlot((e) => e.track(frames)));
  });
}
