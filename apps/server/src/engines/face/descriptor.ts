/**
 * The face descriptor (`FaceObservation.embedding`): an ensemble of Human's faceres embedding (1024-d) and
 * face-api's 128-d recognition net on an eye-aligned chip, each normalised and weighted so that the cosine of two
 * descriptors (faceSimilarity) is (1 - w) * cosine(faceres) + w * cosine(128-d). Chosen on real photos of the same
 * people on different days (docs/decisions.md, "Face match calibrated on real photos"): on the development set
 * neither model alone separated genuine from impostor pairs, the ensemble did.
 */
import { CHIP_SIZE } from './recognition-net.js';
import { normalise } from './similarity.js';
import type { ChipOptions } from './chip.js';

/** Weight of the 128-d recognition net in the similarity (faceres gets the rest). */
export const RECOGNITION_WEIGHT = 0.7;

/** The chip the 128-d net describes: facemesh box + 20%, turned so the eyes are level. */
export const DESCRIPTOR_CHIP: ChipOptions = { size: CHIP_SIZE, pad: 0.2, align: true };

export const FACERES_LENGTH = 1024;
export const RECOGNITION_LENGTH = 128;
export const DESCRIPTOR_LENGTH = FACERES_LENGTH + RECOGNITION_LENGTH;

/** The unit-length ensemble descriptor of one face. */
export function describeFace(faceres: readonly number[], recognition: readonly number[]): number[] {
  const a = Math.sqrt(1 - RECOGNITION_WEIGHT);
  const b = Math.sqrt(RECOGNITION_WEIGHT);
  return [...normalise([...faceres]).map((v) => v * a), ...normalise([...recognition]).map((v) => v * b)];
}
