import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { BlobStore } from '../blob/blob-store.js';
import type { Config } from '../config.js';
import type { DataCipher } from '../crypto/data-cipher.js';
import type { Db } from '../store/db.js';
import type { OcrEngineProvider } from '../engines/ocr/provider.js';
import type { FaceEngineProvider } from '../engines/face/provider.js';
import type { SpeechRecognizer } from '../engines/speech/spoken-code.js';

/** What route modules need, passed explicitly rather than hung on the Fastify instance. */
export interface Deps {
  config: Config;
  db: Db;
  cipher: DataCipher;
  blobs: BlobStore;
  ocr: OcrEngineProvider;
  face: FaceEngineProvider;
  /** Checks the spoken code; the default says it cannot (no Spanish model installable here). */
  speech: SpeechRecognizer;
}

export type ZodApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;
