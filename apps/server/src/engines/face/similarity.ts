import { FaceEngineError } from './types.js';

/** The vector scaled to length 1 (unchanged when zero). */
export function normalise(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  return norm > 0 ? vector.map((v) => v / norm) : vector;
}

/** Cosine similarity of two embeddings (normalised or not). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) throw new FaceEngineError(`embeddings differ in size (${a.length} vs ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * The similarity of two face descriptors (`FaceObservation.embedding`) on the scale of UMBRAL_ROSTRO: every
 * caller compares faces through this function only, so a change of descriptor changes it in one place. The
 * descriptor is the weighted faceres + 128-d ensemble of descriptor.ts, built so that its cosine is the weighted
 * sum of the two models' cosines.
 */
export function faceSimilarity(a: readonly number[], b: readonly number[]): number {
  return cosine(a, b);
}
