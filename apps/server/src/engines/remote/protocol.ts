import { deserialize, serialize } from 'node:v8';

/**
 * The engine service between API nodes and worker processes (ENGINE_SERVICE_URL / ENGINE_SERVICE_TOKEN, docs/decisions.md
 * "OCR and face work on the workers"): one POST per engine call, arguments and answer in V8's structured-clone format
 * (Buffers, typed arrays and plain objects cross as they are: a video's frames, an ID photo, a face crop), the token as
 * a bearer credential. Internal: never exposed through the reverse proxy.
 */
export const engineServicePaths = {
  ocrRead: '/internal/engines/ocr/read',
  ocrReadProof: '/internal/engines/ocr/read-proof',
  faceAnalyse: '/internal/engines/face/analyse',
  faceTrack: '/internal/engines/face/track',
} as const;

export type EngineServiceOp = keyof typeof engineServicePaths;

export const engineContentType = 'application/x-kyc-engine';

/** A track call carries the sampled frames of one video (~40 × 640×480 RGB): the body limit leaves room for more. */
export const engineBodyLimit = 256 * 1024 * 1024;

/** What an engine refusal is, so the client throws the same error the local engine would. */
export type EngineFailureKind = 'image' | 'face' | 'busy' | 'failed';

export const encodeEngineMessage = (value: unknown): Buffer => serialize(value);
export const decodeEngineMessage = <T>(bytes: Buffer): T => deserialize(bytes) as T;
