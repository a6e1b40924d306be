import type { BlobStore } from './blob/blob-store.js';
import type { AppCaches } from './caches.js';
import type { Config } from './config.js';
import type { DataCipher } from './crypto/data-cipher.js';
import type { Db } from './store/db.js';
import type { OcrEngineProvider } from './engines/ocr/provider.js';
import type { FaceEngineProvider } from './engines/face/provider.js';
import type { SpeechRecognizer } from './engines/speech/spoken-code.js';

/**
 * What features and their services need, created once by the composition root (app.ts) and passed explicitly
 * rather than hung on the Fastify instance. Type only: services import it without importing the HTTP layer.
 */
export interface Deps {
  config: Config;
  db: Db;
  cipher: DataCipher;
  blobs: BlobStore;
  ocr: OcrEngineProvider;
  face: FaceEngineProvider;
  /** Checks the spoken code; the default says it cannot (no Spanish model installable here). */
  speech: SpeechRecognizer;
  /** The app's caches (caches.ts): one object per app, emptied explicitly. */
  caches: AppCaches;
}
