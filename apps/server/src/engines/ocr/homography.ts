/** Plane geometry for straightening a photographed card: quads, homographies and a bilinear warp. */

import { applyHomography, invert3, type Matrix3, type Point, type Quad, unitSquareToQuad } from '@kyc/contracts/rules';

export { applyHomography, invert3, type Matrix3, type Point, type Quad, unitSquareToQuad };

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

export interface WarpRegion {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Perspective warp of the quad in `src` (at least 2x2 pixels) onto an upright `outWidth` x `outHeight`
 * image (bilinear, edge pixels clamped). `region` limits the output to a window of the upright card (for
 * the face crop).
 */
export function warpQuad(src: RawImage, quad: Quad, outWidth: number, outHeight: number, region?: WarpRegion): RawImage {
  const target = newTarget(src, outWidth, outHeight, region);
  warpRows(src, unitSquareToQuad(quad), target, 0, target.region.height);
  return target.image;
}

/**
 * The same warp done a band of rows at a time, giving the event loop a turn between bands: a full card is
 * tens of milliseconds of JavaScript, too long to hold a server's event loop in one piece.
 */
export async function warpQuadYielding(src: RawImage, quad: Quad, outWidth: number, outHeight: number, rowsPerSlice = 128): Promise<RawImage> {
  const target = newTarget(src, outWidth, outHeight);
  const m = unitSquareToQuad(quad);
  for (let y = 0; y < target.region.height; y += rowsPerSlice) {
    warpRows(src, m, target, y, Math.min(target.region.height, y + rowsPerSlice));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return target.image;
}

interface WarpTarget {
  image: RawImage;
  region: WarpRegion;
  outWidth: number;
  outHeight: number;
}

function newTarget(src: RawImage, outWidth: number, outHeight: number, region?: WarpRegion): WarpTarget {
  const window = region ?? { left: 0, top: 0, width: outWidth, height: outHeight };
  const image = {
    data: Buffer.alloc(window.width * window.height * src.channels),
    width: window.width,
    height: window.height,
    channels: src.channels,
  };
  return { image, region: window, outWidth, outHeight };
}

function warpRows(src: RawImage, m: Matrix3, target: WarpTarget, fromRow: number, toRow: number): void {
  const { data, width: sw, height: sh, channels } = src;
  const { region, outWidth, outHeight } = target;
  const out = target.image.data;
  const maxX = sw - 1;
  const maxY = sh - 1;
  for (let y = fromRow; y < toRow; y++) {
    const v = (region.top + y + 0.5) / outHeight;
    // The projective map is linear in u along a row once the row's coefficients are known.
    const ax = m[1] * v + m[2];
    const ay = m[4] * v + m[5];
    const aw = m[7] * v + m[8];
    let o = y * region.width * channels;
    for (let x = 0; x < region.width; x++) {
      const u = (region.left + x + 0.5) / outWidth;
      const w = m[6] * u + aw;
      let fx = (m[0] * u + ax) / w - 0.5;
      let fy = (m[3] * u + ay) / w - 0.5;
      if (fx < 0) fx = 0;
      else if (fx > maxX) fx = maxX;
      if (fy < 0) fy = 0;
      else if (fy > maxY) fy = maxY;
      const ix = fx >= maxX ? maxX - 1 : Math.floor(fx);
      const iy = fy >= maxY ? maxY - 1 : Math.floor(fy);
      const tx = fx - ix;
      const ty = fy - iy;
      const i00 = (iy * sw + ix) * channels;
      const i10 = i00 + channels;
      const i01 = i00 + sw * channels;
      const i11 = i01 + channels;
      for (let c = 0; c < channels; c++) {
        const top = data[i00 + c]! + (data[i10 + c]! - data[i00 + c]!) * tx;
        const bottom = data[i01 + c]! + (data[i11 + c]! - data[i01 + c]!) * tx;
        out[o++] = top + (bottom - top) * ty + 0.5;
      }
    }
  }
}

/** Angle of the quad's top edge in degrees (positive: clockwise on screen). */
export function topEdgeAngleDeg(q: Quad): number {
  const [[x0, y0], [x1, y1]] = q;
  return (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI;
}

const distance = (a: Point, b: Point): number => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Mean widths and heights of the quad's opposite edges. */
export function quadSize(q: Quad): { width: number; height: number } {
  return {
    width: (distance(q[0], q[1]) + distance(q[3], q[2])) / 2,
    height: (distance(q[0], q[3]) + distance(q[1], q[2])) / 2,
  };
}

export function scaleQuad(q: Quad, sx: number, sy: number = sx): Quad {
  return q.map(([x, y]) => [x * sx, y * sy]) as Quad;
}

export function quadArea(q: Quad): number {
  let area = 0;
  for (let i = 0; i < 4; i++) {
    const [xa, ya] = q[i]!;
    const [xb, yb] = q[(i + 1) % 4]!;
    area += xa * yb - xb * ya;
  }
  return Math.abs(area) / 2;
}

/** Convex with every corner between 60 and 120 degrees: the shape of a card seen at a modest tilt. */
export function isPlausibleCardQuad(q: Quad): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i]!;
    const b = q[(i + 1) % 4]!;
    const c = q[(i + 2) % 4]!;
    const abx = b[0] - a[0];
    const aby = b[1] - a[1];
    const bcx = c[0] - b[0];
    const bcy = c[1] - b[1];
    const cross = abx * bcy - aby * bcx;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
    const cos = -(abx * bcx + aby * bcy) / (Math.hypot(abx, aby) * Math.hypot(bcx, bcy));
    const angle = (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
    if (angle < 60 || angle > 120) return false;
  }
  return true;
}
