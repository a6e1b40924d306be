/**
 * The face chip the recognition net describes: a square crop around the facemesh landmarks, turned so the eyes
 * are level (optional), sampled to CHIP_SIZE with area averaging. The box is that of the landmarks face-api's own
 * pipeline crops by (jaw line, eyebrows, chin: the 68-point set), taken from facemesh's 468 points, plus `pad`.
 */
import type { Point3, RgbImage } from './types.js';

// facemesh indices: the eyes' contour points, the face silhouette at cheek level, eyebrow tops, chin.
const LEFT_EYE = [33, 133, 159, 145, 160, 144, 158, 153];
const RIGHT_EYE = [362, 263, 386, 374, 385, 380, 387, 373];
const BOX_POINTS = [234, 454, 93, 323, 132, 361, 58, 288, 172, 397, 136, 365, 149, 378, 152, 70, 63, 105, 66, 107, 300, 293, 334, 296, 336];

export interface ChipOptions {
  size: number;
  /** Fraction of the landmarks' box added in total (0.2: 10% each side). */
  pad: number;
  /** Turn the chip so the eyes are level. */
  align: boolean;
}

const centre = (mesh: readonly Point3[], indices: readonly number[]): [number, number] => {
  let x = 0;
  let y = 0;
  for (const i of indices) {
    x += mesh[i]![0];
    y += mesh[i]![1];
  }
  return [x / indices.length, y / indices.length];
};

/** Roll of the eye line in radians (0 when the eyes are level in the image). */
export function eyeRoll(mesh: readonly Point3[]): number {
  const [lx, ly] = centre(mesh, LEFT_EYE);
  const [rx, ry] = centre(mesh, RIGHT_EYE);
  return Math.atan2(ry - ly, rx - lx);
}

/** RGB float values (0..255) of the chip, row-major, size x size x 3. Outside the image is black. */
export function faceChip(image: RgbImage, mesh: readonly Point3[], options: ChipOptions): Float32Array {
  const { size, pad } = options;
  const angle = options.align ? eyeRoll(mesh) : 0;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // Box of the landmarks in the turned frame (u along the eye line, v across it).
  let minU = Infinity;
  let maxU = -Infinity;
  let minV = Infinity;
  let maxV = -Infinity;
  for (const i of BOX_POINTS) {
    const [x, y] = mesh[i]!;
    const u = x * cos + y * sin;
    const v = -x * sin + y * cos;
    minU = Math.min(minU, u);
    maxU = Math.max(maxU, u);
    minV = Math.min(minV, v);
    maxV = Math.max(maxV, v);
  }
  const side = Math.max(maxU - minU, maxV - minV) * (1 + pad);
  const cu = (minU + maxU) / 2;
  const cv = (minV + maxV) / 2;
  const step = side / size;
  const sub = Math.max(1, Math.min(4, Math.ceil(step)));
  const out = new Float32Array(size * size * 3);
  const { data, width, height } = image;
  for (let row = 0; row < size; row += 1) {
    for (let col = 0; col < size; col += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = 0; sy < sub; sy += 1) {
        for (let sx = 0; sx < sub; sx += 1) {
          const u = cu + (col + (sx + 0.5) / sub - size / 2) * step;
          const v = cv + (row + (sy + 0.5) / sub - size / 2) * step;
          const x = u * cos - v * sin - 0.5;
          const y = u * sin + v * cos - 0.5;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          const fx = x - x0;
          const fy = y - y0;
          for (let k = 0; k < 4; k += 1) {
            const px = x0 + (k & 1);
            const py = y0 + (k >> 1);
            if (px < 0 || py < 0 || px >= width || py >= height) continue;
            const w = (k & 1 ? fx : 1 - fx) * (k >> 1 ? fy : 1 - fy);
            const at = (py * width + px) * 3;
            r += data[at]! * w;
            g += data[at + 1]! * w;
            b += data[at + 2]! * w;
          }
        }
      }
      const n = sub * sub;
      const at = (row * size + col) * 3;
      out[at] = r / n;
      out[at + 1] = g / n;
      out[at + 2] = b / n;
    }
  }
  return out;
}
