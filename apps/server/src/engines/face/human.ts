/**
 * @vladmandic/human on TensorFlow.js' WASM backend, offline. Runs in the thread that imports it (the face
 * worker). Recipe measured on this machine (shared/notes/stack-facts.md): the package's main entry needs
 * tfjs-node, so its node-wasm build is loaded after the wasm backend; Node's fetch cannot read file:// URLs, so a
 * tf.io load router reads model.json and the weights from node_modules (the `signature` must be passed on, or
 * faceres returns an empty embedding); human.load() only logs failures, so every needed model is checked.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { normalise } from './similarity.js';
import { FaceEngineError, type AnalysisMode, type FaceAnalysis, type FaceObservation, type Point3, type RgbImage } from './types.js';

const require = createRequire(import.meta.url);

/** Models the face video needs; a missing one refuses to start rather than answering wrongly. */
export const requiredModels = ['blazeface', 'facemesh', 'faceres', 'antispoof', 'liveness'] as const;

/** Fraction of each side added around the image before detection: faces touching the edge are missed otherwise. */
export const PAD_FRACTION = 0.25;
const PAD_GREY = 128;

type Tf = typeof import('@tensorflow/tfjs-core');
interface HumanResultFace {
  box: [number, number, number, number];
  score: number;
  mesh: Point3[];
  rotation?: { angle: { yaw: number; pitch: number; roll: number } } | null;
  embedding?: number[];
  real?: number;
  live?: number;
}
interface HumanInstance {
  load(): Promise<void>;
  detect(input: unknown, config: Record<string, unknown>): Promise<{ face: HumanResultFace[]; error?: string | null }>;
  models: { loaded(): string[] };
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

/** tf.io handler reading a graph model (model.json + weight shards) from disk. */
function fileModelLoader(tf: Tf) {
  tf.io.registerLoadRouter((url: string | string[]) => {
    const target = Array.isArray(url) ? url[0] : url;
    if (typeof target !== 'string' || !target.startsWith('file://')) return null as never;
    const file = decodeURIComponent(target.slice('file://'.length));
    return {
      load: async () => {
        const json = JSON.parse(readFileSync(file, 'utf8')) as {
          modelTopology: object; format?: string; generatedBy?: string; convertedBy?: string; signature?: object;
          userDefinedMetadata?: object; weightsManifest: Array<{ paths: string[]; weights: object[] }>;
        };
        const dir = path.dirname(file);
        const weights = Buffer.concat(json.weightsManifest.flatMap((group) => group.paths.map((p) => readFileSync(path.join(dir, p)))));
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

function configFor(mode: AnalysisMode): Record<string, unknown> {
  const describe = mode === 'describe';
  // The full set every call: human merges a per-call config into its own for good.
  return {
    cacheSensitivity: 0,
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 5, minConfidence: 0.35, return: false, ...noCache },
      mesh: { enabled: true },
      iris: { enabled: false },
      description: { enabled: describe, ...noCache },
      emotion: { enabled: false },
      antispoof: { enabled: describe, ...noCache },
      liveness: { enabled: describe, ...noCache },
    },
  };
}

/** Copies the image into a larger grey canvas, PAD_FRACTION of each dimension on every side. */
export function padImage(image: RgbImage): { padded: RgbImage; dx: number; dy: number } {
  const dx = Math.round(image.width * PAD_FRACTION);
  const dy = Math.round(image.height * PAD_FRACTION);
  const width = image.width + 2 * dx;
  const height = image.height + 2 * dy;
  const data = new Uint8Array(width * height * 3).fill(PAD_GREY);
  const rowBytes = image.width * 3;
  for (let y = 0; y < image.height; y += 1) {
    data.set(image.data.subarray(y * rowBytes, (y + 1) * rowBytes), ((y + dy) * width + dx) * 3);
  }
  return { padded: { data, width, height }, dx, dy };
}

export interface HumanDetector {
  analyse(image: RgbImage, mode: AnalysisMode): Promise<FaceAnalysis>;
  loadedModels: string[];
}

export async function loadHumanDetector(): Promise<HumanDetector> {
  const tf = require('@tensorflow/tfjs-core') as Tf;
  require('@tensorflow/tfjs-converter');
  const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths(prefix: string): void };
  const wasmDir = path.join(packageFolder(require.resolve('@tensorflow/tfjs-backend-wasm'), '@tensorflow/tfjs-backend-wasm'), 'dist') + path.sep;
  wasm.setWasmPaths(wasmDir);
  const humanMain = require.resolve('@vladmandic/human');
  const humanDir = packageFolder(humanMain, '@vladmandic/human');
  const { Human } = require(path.join(humanDir, 'dist', 'human.node-wasm.js')) as { Human: new (config: object) => HumanInstance };
  fileModelLoader(tf);
  const human = new Human({
    backend: 'wasm',
    wasmPath: wasmDir,
    modelBasePath: `file://${path.join(humanDir, 'models')}/`,
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
  const loaded = human.models.loaded();
  const missing = requiredModels.filter((name) => !loaded.includes(name));
  if (missing.length > 0) throw new FaceEngineError(`face models failed to load: ${missing.join(', ')} (from ${path.join(humanDir, 'models')})`);

  return {
    loadedModels: loaded,
    async analyse(image, mode) {
      const { padded, dx, dy } = padImage(image);
      const floats = new Float32Array(padded.data.length);
      for (let i = 0; i < floats.length; i += 1) floats[i] = padded.data[i]!;
      const tensor = tf.tensor(floats, [1, padded.height, padded.width, 3], 'float32');
      try {
        const result = await human.detect(tensor, configFor(mode));
        if (result.error) throw new FaceEngineError(`face detection failed: ${result.error}`);
        const faces: FaceObservation[] = result.face.map((face) => {
          const observation: FaceObservation = {
            box: [face.box[0] - dx, face.box[1] - dy, face.box[2], face.box[3]],
            score: face.score,
            mesh: face.mesh.map(([x, y, z]) => [x - dx, y - dy, z] as Point3),
            angle: face.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 },
          };
          if (mode === 'describe' && face.embedding && face.embedding.length > 0) observation.embedding = normalise(Array.from(face.embedding));
          if (typeof face.real === 'number') observation.real = face.real;
          if (typeof face.live === 'number') observation.live = face.live;
          return observation;
        });
        return { width: image.width, height: image.height, faces };
      } finally {
        tensor.dispose();
      }
    },
  };
}
