/**
 * The 128-d face recognition net shipped with `@vladmandic/face-api` (a ResNet-34-like net after dlib's), run on
 * tfjs-core directly: face-api's own node builds need the full `@tensorflow/tfjs` package (docs/decisions.md), but
 * the net is 30 convolutions, so its weights are read from the package's model folder and the layers are written
 * here, with each layer's scale folded into its convolution at load. Input: a 150x150 RGB face chip (see chip.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FaceEngineError } from './types.js';

type Tf = typeof import('@tensorflow/tfjs-core');
type Tensor = import('@tensorflow/tfjs-core').Tensor;
type Tensor4D = import('@tensorflow/tfjs-core').Tensor4D;

export const CHIP_SIZE = 150;
const MEAN_RGB = [122.782, 117.001, 104.298] as const;

interface Conv {
  filters: Tensor4D;
  bias: Tensor;
}
interface Residual {
  conv1: Conv;
  conv2: Conv;
}

/** The model folder of the installed `@vladmandic/face-api` package. */
export function faceApiModelsDir(): string {
  const require = createRequire(import.meta.url);
  for (const dir of require.resolve.paths('@vladmandic/face-api') ?? []) {
    const candidate = path.join(dir, '@vladmandic', 'face-api', 'model');
    try {
      readFileSync(path.join(candidate, 'face_recognition_model-weights_manifest.json'));
      return candidate;
    } catch {
      // next candidate
    }
  }
  throw new FaceEngineError('the @vladmandic/face-api package (face recognition model) is not installed');
}

export interface RecognitionNet {
  /** The 128-d descriptor of each chip (Float32Array of n * 150 * 150 * 3 RGB values 0..255). */
  describe(chips: Float32Array, count: number): Promise<number[][]>;
  dispose(): void;
}

export function loadRecognitionNet(tf: Tf, modelsDir = faceApiModelsDir()): RecognitionNet {
  const manifest = JSON.parse(readFileSync(path.join(modelsDir, 'face_recognition_model-weights_manifest.json'), 'utf8')) as Array<{
    paths: string[];
    weights: Array<{ name: string; shape: number[]; dtype: string }>;
  }>;
  const buffers = manifest.flatMap((group) => group.paths.map((p) => readFileSync(path.join(modelsDir, p))));
  const all = Buffer.concat(buffers);
  const specs = manifest.flatMap((group) => group.weights);
  const weights = tf.io.decodeWeights(all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer, specs as never);
  const take = (name: string): Tensor => {
    const t = weights[name];
    if (!t) throw new FaceEngineError(`face recognition model: weight ${name} missing`);
    return t;
  };
  // conv -> + bias -> * scale.weights + scale.biases, folded: filters * s, bias * s + b.
  const conv = (prefix: string): Conv =>
    tf.tidy(() => {
      const s = take(`${prefix}/scale/weights`);
      return {
        filters: tf.mul(take(`${prefix}/conv/filters`), s) as Tensor4D,
        bias: tf.add(tf.mul(take(`${prefix}/conv/bias`), s), take(`${prefix}/scale/biases`)),
      };
    });
  const residual = (prefix: string): Residual => ({ conv1: conv(`${prefix}/conv1`), conv2: conv(`${prefix}/conv2`) });
  const params = {
    conv32_down: conv('conv32_down'),
    conv32: ['conv32_1', 'conv32_2', 'conv32_3'].map(residual),
    conv64_down: residual('conv64_down'),
    conv64: ['conv64_1', 'conv64_2', 'conv64_3'].map(residual),
    conv128_down: residual('conv128_down'),
    conv128: ['conv128_1', 'conv128_2'].map(residual),
    conv256_down: residual('conv256_down'),
    conv256: ['conv256_1', 'conv256_2'].map(residual),
    conv256_down_out: residual('conv256_down_out'),
    fc: tf.clone(take('fc')),
  };
  for (const t of Object.values(weights)) t.dispose();

  const layer = (x: Tensor4D, p: Conv, stride: number, relu: boolean, padding: 'same' | 'valid' = 'same'): Tensor4D => {
    const out = tf.add(tf.conv2d(x, p.filters, stride, padding), p.bias) as Tensor4D;
    return relu ? tf.relu(out) : out;
  };
  const block = (x: Tensor4D, p: Residual): Tensor4D => tf.relu(tf.add(layer(layer(x, p.conv1, 1, true), p.conv2, 1, false), x) as Tensor4D);
  const blockDown = (x: Tensor4D, p: Residual): Tensor4D => {
    let out = layer(layer(x, p.conv1, 2, true, 'valid'), p.conv2, 1, false);
    let pooled = tf.avgPool(x, 2, 2, 'valid');
    if (pooled.shape[1] !== out.shape[1] || pooled.shape[2] !== out.shape[2]) {
      out = tf.pad(out, [
        [0, 0],
        [0, pooled.shape[1] - out.shape[1]],
        [0, pooled.shape[2] - out.shape[2]],
        [0, 0],
      ]);
    }
    if (pooled.shape[3] !== out.shape[3])
      pooled = tf.pad(pooled, [
        [0, 0],
        [0, 0],
        [0, 0],
        [0, out.shape[3] - pooled.shape[3]],
      ]);
    return tf.relu(tf.add(pooled, out) as Tensor4D);
  };

  return {
    async describe(chips, count) {
      if (count === 0) return [];
      const output = tf.tidy(() => {
        const input = tf.tensor4d(chips, [count, CHIP_SIZE, CHIP_SIZE, 3], 'float32');
        const normalised = tf.div(tf.sub(input, tf.tensor1d([...MEAN_RGB])), 255) as Tensor4D;
        let out = layer(normalised, params.conv32_down, 2, true, 'valid');
        out = tf.maxPool(out, 3, 2, 'valid');
        for (const p of params.conv32) out = block(out, p);
        out = blockDown(out, params.conv64_down);
        for (const p of params.conv64) out = block(out, p);
        out = blockDown(out, params.conv128_down);
        for (const p of params.conv128) out = block(out, p);
        out = blockDown(out, params.conv256_down);
        for (const p of params.conv256) out = block(out, p);
        out = blockDown(out, params.conv256_down_out);
        return tf.matMul(tf.mean(out, [1, 2]), params.fc as never);
      });
      const values = await output.data();
      output.dispose();
      return Array.from({ length: count }, (_, i) => Array.from(values.subarray(i * 128, (i + 1) * 128)));
    },
    dispose() {
      const { fc, ...rest } = params;
      fc.dispose();
      for (const value of Object.values(rest)) {
        for (const item of Array.isArray(value) ? value : [value]) {
          const parts = 'conv1' in item ? [item.conv1, item.conv2] : [item];
          for (const c of parts) {
            c.filters.dispose();
            c.bias.dispose();
          }
        }
      }
    },
  };
}
