/** An RGB image as raw bytes (3 channels, row-major, no padding). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export type Point3 = [number, number, number];

/**
 * One face found in an image, in that image's pixel coordinates.
 * `mesh` is facemesh's 468 landmarks; `embedding` (the descriptor of descriptor.ts: faceres 1024-d + face-api
 * 128-d, unit length, compared with faceSimilarity) only when asked for.
 */
export interface FaceObservation {
  /** [x, y, width, height]. */
  box: [number, number, number, number];
  score: number;
  mesh: Point3[];
  /** Head rotation in radians from the mesh. */
  angle: { yaw: number; pitch: number; roll: number };
  embedding?: number[];
  /** Passive anti-spoofing and liveness scores (0..1); weak signals on their own. */
  real?: number;
  live?: number;
}

export interface FaceAnalysis {
  width: number;
  height: number;
  faces: FaceObservation[];
}

/** `track`: detector and mesh only (~40 ms a frame alone, ~15 ms in a tracked video); `describe`: also the descriptor and passive scores (~200 ms). */
export type AnalysisMode = 'track' | 'describe';

export interface FaceEngine {
  analyse(image: RgbImage, mode: AnalysisMode): Promise<FaceAnalysis>;
  /**
   * The frames of one video in order, tracked: the detector on some frames and the mesh on a box that stays where
   * the detector put it (engines/face/tracker.ts), so a still picture keeps still landmarks. Each answer is what
   * `analyse(frame, 'track')` would give that frame on its own, up to the box the mesh was run on.
   */
  track(frames: readonly RgbImage[]): Promise<FaceAnalysis[]>;
  close(): Promise<void>;
}

export class FaceEngineError extends Error {
  override name = 'FaceEngineError';
}
