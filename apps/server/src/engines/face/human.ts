/**
 * @vladmandic/human on TensorFlow.js' WASM backend, offline. Runs in the thread that imports it (the face
 * worker). Recipe measured on this machine (shared/notes/stack-facts.md): the package's main entry needs
 * tfjs-node, so its node-wasm build is loaded after the wasm backend; Node's fetch cannot read file:// URLs, so a
 * tf.io load router reads model.json and the weights from node_modules (the `signature` must be passed on, or
 * faceres returns an empty embedding); human.load() only logs failures and still lists a failed model as loaded,
 * so every needed model is checked against the files the load router actually read.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { faceChip } from './chip.js';
import { describeFace, DESCRIPTOR_CHIP } from './descriptor.js';
import { loadRecognitionNet, type RecognitionNet } from './recognition-net.js';
import { meshFromRaw, sampleRegion, trackSequence, type CropBox, type TrackerModels } from './tracker.js';
import { FaceEngineError, type AnalysisMode, type FaceAnalysis, type FaceObservation, type Point3, type RgbImage } from './types.js';

const require = createRequire(import.meta.url);

/** Models the face video needs; a missing one refuses to start rather than answering wrongly. */
export const requiredModels = ['blazeface', 'facemesh', 'faceres', 'antispoof', 'liveness'] as const;

/** Fraction of each side added around the image before detection: faces touching the edge are missed otherwise. */
export const PAD_FRACTION = 0.25;

/**
 * Shape (width / height) of the padded input the detector sees in each mode, whatever the camera's. Blazeface
 * squeezes its whole input into 256x256, so the face's proportions there, and the box it finds, follow this shape:
 * - describe (embeddings): square, no distortion. With the frame's own shape a 640x360 frame gave a box 30% too
 *   large and a face score of 0.66 where the same face letterboxed scored 0.93.
 * - track (landmarks for liveness and the mask check): 4:3, the shape the liveness thresholds were measured on
 *   (640x480 videos). A square input there lowers the mouth-opening spread of some faces (fa-s3-c 0.16 → 0.07,
 *   threshold 0.06); keeping it fixed makes 16:9 and portrait cameras tracked like the measured ones.
 * See docs/decisions.md.
 */
export const DETECTOR_ASPECT: Record<AnalysisMode, number> = { describe: 1, track: 4 / 3 };

/** Grey padding that centres a width x height image, with at least PAD_FRACTION margin on each side, in a `aspect` box. */
export function detectorPadding(width: number, height: number, aspect: number): { paddedWidth: number; paddedHeight: number; dx: number; dy: number } {
  let paddedWidth = Math.round(width * (1 + 2 * PAD_FRACTION));
  let paddedHeight = Math.round(height * (1 + 2 * PAD_FRACTION));
  if (paddedWidth / paddedHeight < aspect) paddedWidth = Math.round(paddedHeight * aspect);
  else paddedHeight = Math.round(paddedWidth / aspect);
  return { paddedWidth, paddedHeight, dx: Math.floor((paddedWidth - width) / 2), dy: Math.floor((paddedHeight - height) / 2) };
}
const PAD_GREY = 128;

type Tf = typeof import('@tensorflow/tfjs-core');
interface HumanResultFace {
  box: [number, number, number, number];
  /** The box as shares of the input's width and height, not clamped to it. */
  boxRaw: [number, number, number, number];
  score: number;
  mesh: Point3[];
  rotation?: { angle: { yaw: number; pitch: number; roll: number } } | null;
  embedding?: number[];
  real?: number;
  live?: number;
}
interface GraphModel {
  inputs: Array<{ shape?: number[] }>;
  execute(input: unknown): unknown;
}
interface HumanInstance {
  load(): Promise<void>;
  detect(input: unknown, config: Record<string, unknown>): Promise<{ face: HumanResultFace[]; error?: string | null }>;
  models: { loaded(): string[]; models: Record<string, GraphModel | null> };
}

function packageFolder(resolved: string, name: string): string {
  const marker = `${path.sep}node_modules${path.sep}${name.split('/').join(path.sep)}${path.sep}`;
  const at = resolved.lastIndexOf(marker);
  if (at < 0) throw new FaceEngineError(`cannot locate the ${name} package folder from ${resolved}`);
  return resolved.slice(0, at + marker.length);
}

function arrayBufferOf(buffer: Buffer): ArrayBuffer {
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
}

/**
 * tf.io handler reading a graph model (model.json + weight shards) from disk; `read` collects the names of the
 * models whose files were read whole (human's own list also names models that failed to load).
 */
function fileModelLoader(tf: Tf, read: Set<string>) {
  tf.io.registerLoadRouter((url: string | string[]) => {
    const target = Array.isArray(url) ? url[0] : url;
    if (typeof target !== 'string' || !target.startsWith('file://')) return null as never;
    const file = decodeURIComponent(target.slice('file://'.length));
    return {
      load: async () => {
        const json = JSON.parse(readFileSync(file, 'utf8')) as {
          modelTopology: object;
          format?: string;
          generatedBy?: string;
          convertedBy?: string;
          signature?: object;
          userDefinedMetadata?: object;
          weightsManifest: Array<{ paths: string[]; weights: object[] }>;
        };
        const dir = path.dirname(file);
        const weights = Buffer.concat(json.weightsManifest.flatMap((group) => group.paths.map((p) => readFileSync(path.join(dir, p)))));
        read.add(path.basename(file, '.json'));
        return {
          modelTopology: json.modelTopology,
          format: json.format,
          generatedBy: json.generatedBy,
          convertedBy: json.convertedBy,
          signature: json.signature,
          userDefinedMetadata: json.userDefinedMetadata,
          weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
          weightData: arrayBufferOf(weights),
        } as never;
      },
    };
  });
}

const noCache = { skipFrames: 0, skipTime: 0 };
/** Faces whose detector or mesh confidence is not above this are dropped. */
const MIN_CONFIDENCE = 0.35;

/** `detect`: the detector alone (its boxes, for the tracker); `describe`: detector, mesh, descriptor and passive scores. */
function configFor(mode: 'detect' | 'describe'): Record<string, unknown> {
  const describe = mode === 'describe';
  // The full set every call: human merges a per-call config into its own for good.
  return {
    cacheSensitivity: 0,
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 5, minConfidence: MIN_CONFIDENCE, return: false, ...noCache },
      mesh: { enabled: describe },
      iris: { enabled: false },
      description: { enabled: describe, ...noCache },
      emotion: { enabled: false },
      antispoof: { enabled: describe, ...noCache },
      liveness: { enabled: describe, ...noCache },
    },
  };
}

/**
 * Height of the padded frame (DETECTOR_ASPECT.track, 4:3) given to the detector when tracking: blazeface squeezes
 * any input into its 256 x 256, so a larger one only costs its conversion. Its shape must stay the padded frame's:
 * human enlarges and squares the box in the input's own pixels. Sampled from the frame with up to 2 x 2 samples a
 * pixel (tracker.ts sampleRegion). Embeddings are computed on the full-size frame.
 */
export const TRACK_DETECT_HEIGHT = 256;

export interface HumanDetector {
  analyse(image: RgbImage, mode: AnalysisMode): Promise<FaceAnalysis>;
  /** The frames of a video in order, tracked (tracker.ts): the same observations as `analyse(image, 'track')` gives a lone frame. */
  track(images: readonly RgbImage[]): Promise<FaceAnalysis[]>;
  loadedModels: string[];
}

export interface HumanOptions {
  /** Folder of model.json + weight files (default: the models shipped in @vladmandic/human). */
  modelsDir?: string;
  /** Folder of face-api's face_recognition_model files (default: the models shipped in @vladmandic/face-api). */
  recognitionModelsDir?: string;
}

/** The tracker's two models (tracker.ts): the detector through human, facemesh run by our code on a given box. */
function trackerModelsFor(tf: Tf, human: HumanInstance): TrackerModels {
  const meshModel = human.models.models.facemesh;
  if (!meshModel) throw new FaceEngineError('face models failed to load: facemesh');
  const meshInputSize = meshModel.inputs[0]?.shape?.[2] ?? 192;

  return {
    minConfidence: MIN_CONFIDENCE,
    meshInputSize,
    async detect(image) {
      const { paddedWidth, paddedHeight, dx, dy } = detectorPadding(image.width, image.height, DETECTOR_ASPECT.track);
      const height = TRACK_DETECT_HEIGHT;
      const width = Math.round(height * DETECTOR_ASPECT.track);
      const pixels = sampleRegion(image, -dx, -dy, paddedWidth, paddedHeight, width, height, PAD_GREY, 2);
      const input = tf.tensor4d(pixels, [1, height, width, 3], 'float32');
      try {
        const result = await human.detect(input, configFor('detect'));
        if (result.error) throw new FaceEngineError(`face detection failed: ${result.error}`);
        return result.face.map((face): CropBox => {
          const size = Math.max(face.boxRaw[2] * paddedWidth, face.boxRaw[3] * paddedHeight);
          return { x: face.boxRaw[0] * paddedWidth - dx, y: face.boxRaw[1] * paddedHeight - dy, size };
        });
      } finally {
        input.dispose();
      }
    },
    async mesh(image, box) {
      const pixels = sampleRegion(image, box.x, box.y, box.size, box.size, meshInputSize, meshInputSize, PAD_GREY, 2);
      for (let i = 0; i < pixels.length; i += 1) pixels[i] = pixels[i]! / 255;
      const input = tf.tensor4d(pixels, [1, meshInputSize, meshInputSize, 3], 'float32');
      const outputs = [meshModel.execute(input)].flat() as Array<import('@tensorflow/tfjs-core').Tensor>;
      try {
        const confidence = outputs.find((t) => t.shape[t.shape.length - 1] === 1);
        const coords = outputs.find((t) => t.shape[t.shape.length - 1] === 1404);
        if (!confidence || !coords) throw new FaceEngineError('facemesh gave no landmarks');
        const score = (await confidence.data())[0] ?? 0;
        return { score, mesh: meshFromRaw(await coords.data(), box, meshInputSize) };
      } finally {
        input.dispose();
        for (const t of outputs) t.dispose();
      }
    },
  };
}

export async function loadHumanDetector(options: HumanOptions = {}): Promise<HumanDetector> {
  const tf = require('@tensorflow/tfjs-core') as Tf;
  require('@tensorflow/tfjs-converter');
  const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths(prefix: string): void };
  const wasmDir = path.join(packageFolder(require.resolve('@tensorflow/tfjs-backend-wasm'), '@tensorflow/tfjs-backend-wasm'), 'dist') + path.sep;
  wasm.setWasmPaths(wasmDir);
  const humanMain = require.resolve('@vladmandic/human');
  const humanDir = packageFolder(humanMain, '@vladmandic/human');
  const { Human } = require(path.join(humanDir, 'dist', 'human.node-wasm.js')) as { Human: new (config: object) => HumanInstance };
  const read = new Set<string>();
  fileModelLoader(tf, read);
  const modelsDir = options.modelsDir ?? path.join(humanDir, 'models');
  const human = new Human({
    backend: 'wasm',
    wasmPath: wasmDir,
    modelBasePath: `file://${modelsDir}/`,
    debug: false,
    warmup: 'none',
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    filter: { enabled: false },
    ...configFor('describe'),
  });
  await human.load();
  const loaded = human.models.loaded().filter((name) => read.has(name));
  const missing = requiredModels.filter((name) => !loaded.includes(name));
  if (missing.length > 0) throw new FaceEngineError(`face models failed to load: ${missing.join(', ')} (from ${modelsDir})`);
  let net: RecognitionNet;
  try {
    net = loadRecognitionNet(tf, options.recognitionModelsDir);
  } catch (error) {
    throw new FaceEngineError(`face models failed to load: face_recognition_model (${error instanceof Error ? error.message : String(error)})`);
  }

  const models = trackerModelsFor(tf, human);

  const track = async (images: readonly RgbImage[]): Promise<FaceAnalysis[]> => {
    const faces = await trackSequence(models, images);
    return images.map((image, i) => ({ width: image.width, height: image.height, faces: faces[i]! }));
  };

  return {
    loadedModels: [...loaded, 'face_recognition_model'],
    track,
    async analyse(image, mode) {
      if (mode === 'track') return (await track([image]))[0]!;
      const floats = new Float32Array(image.data.length);
      for (let i = 0; i < floats.length; i += 1) floats[i] = image.data[i]!;
      const { paddedWidth, paddedHeight, dx, dy } = detectorPadding(image.width, image.height, DETECTOR_ASPECT.describe);
      const input = tf.tidy(() =>
        tf.pad(
          tf.tensor4d(floats, [1, image.height, image.width, 3], 'float32'),
          [
            [0, 0],
            [dy, paddedHeight - image.height - dy],
            [dx, paddedWidth - image.width - dx],
            [0, 0],
          ],
          PAD_GREY,
        ),
      );
      try {
        const result = await human.detect(input, configFor('describe'));
        if (result.error) throw new FaceEngineError(`face detection failed: ${result.error}`);
        const faces: FaceObservation[] = result.face.map((face) => {
          const observation: FaceObservation = {
            box: [face.box[0] - dx, face.box[1] - dy, face.box[2], face.box[3]],
            score: face.score,
            mesh: face.mesh.map(([mx, my, mz]) => [mx - dx, my - dy, mz] as Point3),
            angle: face.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 },
          };
          if (typeof face.real === 'number') observation.real = face.real;
          if (typeof face.live === 'number') observation.live = face.live;
          return observation;
        });
        const described = result.face.flatMap((face, i) => (face.embedding && face.embedding.length > 0 ? [{ i, faceres: Array.from(face.embedding) }] : []));
        const chips = new Float32Array(described.length * DESCRIPTOR_CHIP.size * DESCRIPTOR_CHIP.size * 3);
        described.forEach(({ i }, k) => chips.set(faceChip(image, faces[i]!.mesh, DESCRIPTOR_CHIP), k * DESCRIPTOR_CHIP.size * DESCRIPTOR_CHIP.size * 3));
        const recognised = await net.describe(chips, described.length);
        described.forEach(({ i, faceres }, k) => {
          faces[i]!.embedding = describeFace(faceres, recognised[k]!);
        });
        return { width: image.width, height: image.height, faces };
      } finally {
        input.dispose();
      }
    },
  };
}
