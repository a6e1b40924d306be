import { insetRect, pixelRect, type Rect } from './geometry';

/**
 * On-device quality check of an ID capture, run before anything is uploaded: a capture that fails costs
 * no attempt. Pure functions on grey images (one luma byte per pixel), so they run in node tests on
 * synthetic images and in the browser on a downscaled copy of the frame.
 */
export interface GreyImage {
  width: number;
  height: number;
  /** Row-major luma, 0..255. */
  data: Uint8Array | Uint8ClampedArray;
}

/**
 * Every threshold in one place. Calibrated on synthetic scenes (quality.test.ts): a sharp card with
 * text-like strokes on a dark background passes; the same scene box-blurred fails on blur; a saturated
 * spot over 4% of the card fails on glare; an empty frame fails on the document.
 */
export const qualityThresholds = {
  /** The frame is analysed at most this wide (the browser downscales it first). */
  analysisMaxWidth: 960,
  /** Blur: variance of the 4-neighbour Laplacian inside the guide, below which the capture is blurred. */
  blurMinLaplacianVariance: 120,
  /** Blur is measured on the guide shrunk by this fraction per side (the card's own border excluded). */
  blurInset: 0.06,
  /** Glare: luma at or above which a pixel counts as saturated. */
  glareLuma: 250,
  /** Glare: the largest solid 4-connected saturated cluster may cover at most this share of the guide... */
  glareMaxClusterShare: 0.04,
  /** ...solid meaning that at most this share of its outline is print showing through (white print areas are not glare). */
  glareMaxHoleShare: 0.05,
  /** Document edges are searched this far (fraction of the guide's size) on both sides of each guide side. */
  edgeBand: 0.22,
  /** ...at tilts up to this slope (0.14 ≈ 8°), in steps of edgeSlopeStep. */
  edgeMaxSlope: 0.14,
  edgeSlopeStep: 0.02,
  /** Only the central part of each side is scanned (corners are rounded and often in shadow). */
  edgeSpan: 0.7,
  /** Grey-level step across two pixels on each side of a candidate line that counts as an edge sample. */
  edgeMinStep: 24,
  /** Share of the samples along a line that must be edge samples for a side to be found. */
  edgeMinCoverage: 0.6,
  /** Document found: at least this many of the four sides found... */
  documentMinEdges: 3,
  /** ...or at least this many sides plus a clear brightness difference between the card and its surroundings. */
  documentContrastEdges: 2,
  documentMinContrast: 40,
} as const;

export type QualityThresholds = { readonly [K in keyof typeof qualityThresholds]: number };

export type QualityIssue = 'document' | 'glare' | 'blur';

export interface EdgeEvidence {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface QualityReport {
  ok: boolean;
  /** Failing checks, most fundamental first: no document, then glare, then blur. */
  issues: QualityIssue[];
  metrics: {
    laplacianVariance: number;
    /** The largest solid saturated cluster's share of the guide. */
    glareClusterShare: number;
    saturatedShare: number;
    edges: EdgeEvidence;
    edgesFound: number;
    contrast: number;
  };
}

/** Rec. 601 luma of RGBA pixels (canvas ImageData layout). */
export function rgbaToGrey(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GreyImage {
  const data = new Uint8ClampedArray(width * height);
  for (let i = 0, p = 0; i < data.length; i += 1, p += 4) {
    data[i] = (299 * rgba[p]! + 587 * rgba[p + 1]! + 114 * rgba[p + 2]!) / 1000;
  }
  return { width, height, data };
}

/** Area-average downscale to at most maxWidth (aspect kept); the image itself when already small enough. */
export function downscaleGrey(image: GreyImage, maxWidth: number): GreyImage {
  if (image.width <= maxWidth) return image;
  const scale = image.width / maxWidth;
  const width = maxWidth;
  const height = Math.max(1, Math.round(image.height / scale));
  const data = new Uint8ClampedArray(width * height);
  const sy = image.height / height;
  for (let y = 0; y < height; y += 1) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
    for (let x = 0; x < width; x += 1) {
      const x0 = Math.floor(x * scale);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * scale));
      let sum = 0;
      for (let yy = y0; yy < y1; yy += 1) {
        const row = yy * image.width;
        for (let xx = x0; xx < x1; xx += 1) sum += image.data[row + xx]!;
      }
      data[y * width + x] = sum / ((y1 - y0) * (x1 - x0));
    }
  }
  return { width, height, data };
}

/** Variance of the 4-neighbour Laplacian over `rect` (the whole image by default). Low means blurred. */
export function laplacianVariance(image: GreyImage, rect: Rect = { x: 0, y: 0, width: image.width, height: image.height }): number {
  const r = pixelRect(rect, image);
  const x0 = Math.max(1, r.x);
  const y0 = Math.max(1, r.y);
  const x1 = Math.min(image.width - 1, r.x + r.width);
  const y1 = Math.min(image.height - 1, r.y + r.height);
  const { data, width } = image;
  let n = 0;
  let sum = 0;
  let sumSq = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const i = y * width + x;
      const lap = 4 * data[i]! - data[i - 1]! - data[i + 1]! - data[i - width]! - data[i + width]!;
      n += 1;
      sum += lap;
      sumSq += lap * lap;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

/** Share of a cluster's filled outline taken by enclosed non-cluster pixels (print showing through). */
function holeShare(labels: Int32Array, width: number, label: number, box: { x0: number; y0: number; x1: number; y1: number }, area: number): number {
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  const outside = new Uint8Array(bw * bh);
  const stack = new Int32Array(bw * bh);
  let top = 0;
  const push = (bx: number, by: number) => {
    const local = by * bw + bx;
    if (outside[local] === 1 || labels[(box.y0 + by) * width + box.x0 + bx] === label) return;
    outside[local] = 1;
    stack[top++] = local;
  };
  for (let bx = 0; bx < bw; bx += 1) {
    push(bx, 0);
    push(bx, bh - 1);
  }
  for (let by = 0; by < bh; by += 1) {
    push(0, by);
    push(bw - 1, by);
  }
  let reached = 0;
  while (top > 0) {
    const local = stack[--top]!;
    reached += 1;
    const bx = local % bw;
    const by = (local - bx) / bw;
    if (bx > 0) push(bx - 1, by);
    if (bx < bw - 1) push(bx + 1, by);
    if (by > 0) push(bx, by - 1);
    if (by < bh - 1) push(bx, by + 1);
  }
  const holes = bw * bh - area - reached;
  return holes / (area + holes);
}

/**
 * Saturated pixels (luma >= minLuma) inside `rect`: their share of the rectangle, the share of the largest
 * 4-connected cluster of them, and the share of the largest *solid* cluster. Glare washes out whatever is
 * printed under it, so a glare spot is a solid blob; a white printed area (an MRZ band, a QR code's margin)
 * is full of enclosed print and is not glare. A cluster is solid when at most maxHoles of its outline is print.
 */
export function glareShare(
  image: GreyImage,
  rect: Rect,
  minLuma: number,
  minClusterShare = 0,
  maxHoles = 0.05,
): { saturatedShare: number; largestClusterShare: number; largestSolidClusterShare: number } {
  const r = pixelRect(rect, image);
  const area = r.width * r.height;
  if (area === 0) return { saturatedShare: 0, largestClusterShare: 0, largestSolidClusterShare: 0 };
  // 0: not saturated; -1: saturated, not yet labelled; > 0: cluster label.
  const labels = new Int32Array(area);
  let saturated = 0;
  for (let y = 0; y < r.height; y += 1) {
    const src = (r.y + y) * image.width + r.x;
    for (let x = 0; x < r.width; x += 1) {
      if (image.data[src + x]! >= minLuma) {
        labels[y * r.width + x] = -1;
        saturated += 1;
      }
    }
  }
  let largest = 0;
  let largestSolid = 0;
  let next = 0;
  const stack = new Int32Array(area);
  for (let start = 0; start < area; start += 1) {
    if (labels[start] !== -1) continue;
    next += 1;
    let size = 0;
    let top = 0;
    const box = { x0: r.width, y0: r.height, x1: 0, y1: 0 };
    stack[top++] = start;
    labels[start] = next;
    while (top > 0) {
      const i = stack[--top]!;
      size += 1;
      const x = i % r.width;
      const y = (i - x) / r.width;
      if (x < box.x0) box.x0 = x;
      if (x > box.x1) box.x1 = x;
      if (y < box.y0) box.y0 = y;
      if (y > box.y1) box.y1 = y;
      if (x > 0 && labels[i - 1] === -1) {
        labels[i - 1] = next;
        stack[top++] = i - 1;
      }
      if (x < r.width - 1 && labels[i + 1] === -1) {
        labels[i + 1] = next;
        stack[top++] = i + 1;
      }
      if (i >= r.width && labels[i - r.width] === -1) {
        labels[i - r.width] = next;
        stack[top++] = i - r.width;
      }
      if (i + r.width < area && labels[i + r.width] === -1) {
        labels[i + r.width] = next;
        stack[top++] = i + r.width;
      }
    }
    if (size > largest) largest = size;
    // Only clusters big enough to matter are checked for print showing through.
    if (size > largestSolid && size / area > minClusterShare && holeShare(labels, r.width, next, box, size) <= maxHoles) {
      largestSolid = size;
    }
  }
  return { saturatedShare: saturated / area, largestClusterShare: largest / area, largestSolidClusterShare: largestSolid / area };
}

type Side = keyof EdgeEvidence;

/**
 * Best edge coverage for one side of the guide: for every candidate line in a band around the side, at every
 * tilt up to edgeMaxSlope (a card is rarely held perfectly square), the share of samples along the side's
 * central span where the luma steps by at least edgeMinStep across the line (2 px each way). A card border
 * gives a long continuous edge; print and surface texture give scattered samples.
 */
export function sideEdgeCoverage(image: GreyImage, mask: Rect, side: Side, t: QualityThresholds = qualityThresholds): number {
  const vertical = side === 'left' || side === 'right';
  const { width, height, data } = image;
  const along = vertical ? mask.height : mask.width;
  const across = vertical ? mask.width : mask.height;
  const position = side === 'left' ? mask.x : side === 'right' ? mask.x + mask.width : side === 'top' ? mask.y : mask.y + mask.height;
  const acrossLimit = vertical ? width : height;
  const alongLimit = vertical ? height : width;
  const start = (vertical ? mask.y : mask.x) + (along * (1 - t.edgeSpan)) / 2;
  const s0 = Math.max(0, Math.floor(start));
  const s1 = Math.min(alongLimit, Math.ceil(start + along * t.edgeSpan));
  const samples = s1 - s0;
  const first = Math.floor(position - t.edgeBand * across);
  const last = Math.ceil(position + t.edgeBand * across);
  if (samples <= 0 || last < first) return 0;
  const middle = (s0 + s1) / 2;
  const slopeSteps = Math.max(0, Math.round(t.edgeMaxSlope / t.edgeSlopeStep));
  let best = 0;
  for (let k = -slopeSteps; k <= slopeSteps; k += 1) {
    const slope = k * t.edgeSlopeStep;
    for (let line = first; line <= last; line += 1) {
      let hits = 0;
      for (let s = s0; s < s1; s += 1) {
        const c = Math.round(line + slope * (s - middle));
        if (c < 2 || c > acrossLimit - 3) continue;
        const diff = vertical ? data[s * width + c + 2]! - data[s * width + c - 2]! : data[(c + 2) * width + s]! - data[(c - 2) * width + s]!;
        if (diff >= t.edgeMinStep || diff <= -t.edgeMinStep) hits += 1;
      }
      const coverage = hits / samples;
      if (coverage > best) best = coverage;
    }
  }
  return best;
}

function meanOver(image: GreyImage, rect: Rect, exclude?: Rect): { mean: number; count: number } {
  const r = pixelRect(rect, image);
  const e = exclude ? pixelRect(exclude, image) : null;
  let sum = 0;
  let count = 0;
  for (let y = r.y; y < r.y + r.height; y += 1) {
    for (let x = r.x; x < r.x + r.width; x += 1) {
      if (e && x >= e.x && x < e.x + e.width && y >= e.y && y < e.y + e.height) continue;
      sum += image.data[y * image.width + x]!;
      count += 1;
    }
  }
  return { mean: count ? sum / count : 0, count };
}

/**
 * Brightness difference between the card (inside the guide) and the surface around it: the frame outside
 * the edge search band, or, when the guide leaves too little of it (a landscape frame), outside half the band
 * or just outside the guide. 0 when the guide leaves no surroundings at all.
 */
export function cardContrast(image: GreyImage, mask: Rect, t: QualityThresholds = qualityThresholds): number {
  const inner = meanOver(image, insetRect(mask, 0.1));
  if (inner.count === 0) return 0;
  const frame = { x: 0, y: 0, width: image.width, height: image.height };
  const minCount = image.width * image.height * 0.01;
  for (const grow of [t.edgeBand, t.edgeBand / 2, 0.04]) {
    const ring = meanOver(image, frame, insetRect(mask, -grow));
    if (ring.count >= minCount) return Math.abs(inner.mean - ring.mean);
  }
  return 0;
}

export function documentEvidence(image: GreyImage, mask: Rect, t: QualityThresholds = qualityThresholds) {
  const edges: EdgeEvidence = {
    top: sideEdgeCoverage(image, mask, 'top', t),
    right: sideEdgeCoverage(image, mask, 'right', t),
    bottom: sideEdgeCoverage(image, mask, 'bottom', t),
    left: sideEdgeCoverage(image, mask, 'left', t),
  };
  const edgesFound = Object.values(edges).filter((coverage) => coverage >= t.edgeMinCoverage).length;
  const contrast = cardContrast(image, mask, t);
  const found = edgesFound >= t.documentMinEdges || (edgesFound >= t.documentContrastEdges && contrast >= t.documentMinContrast);
  return { edges, edgesFound, contrast, found };
}

/** The three checks on a grey frame and the guide rectangle in that frame's pixels. */
export function assessQuality(image: GreyImage, mask: Rect, t: QualityThresholds = qualityThresholds): QualityReport {
  const document = documentEvidence(image, mask, t);
  const glare = glareShare(image, mask, t.glareLuma, t.glareMaxClusterShare, t.glareMaxHoleShare);
  const variance = laplacianVariance(image, insetRect(mask, t.blurInset));
  const issues: QualityIssue[] = [];
  if (!document.found) issues.push('document');
  if (glare.largestSolidClusterShare > t.glareMaxClusterShare) issues.push('glare');
  if (variance < t.blurMinLaplacianVariance) issues.push('blur');
  return {
    ok: issues.length === 0,
    issues,
    metrics: {
      laplacianVariance: variance,
      glareClusterShare: glare.largestSolidClusterShare,
      saturatedShare: glare.saturatedShare,
      edges: document.edges,
      edgesFound: document.edgesFound,
      contrast: document.contrast,
    },
  };
}
