/**
 * Specular highlights of a moving ID card (the /holograma calibration video). The card is tracked as the
 * largest bright quadrilateral-like region of each frame, resampled to a fixed grid so that frames compare
 * pixel by pixel, and a pixel counts as a highlight in a frame when it is near saturation and clearly
 * brighter than the same point of the card usually is (its median over the video). A hologram or a glossy
 * laminate tilted under a light shows highlights that appear, move and sweep the card; a flat copy shows none,
 * and a lamp's fixed reflection is part of the median and does not count.
 */
import type { CheckOutcome, HologramMeasure } from '../../domain/evidence-kinds.js';
import type { SampledFrames } from './decode.js';

export interface CardBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Grid the card is resampled to (about the ID-1 aspect ratio). */
const gridWidth = 96;
const gridHeight = 60;
/** Near saturation on 0..255 greyscale. */
export const saturationLevel = 230;
/** How much brighter than the card's usual value a pixel must be to be a highlight. */
export const riseOverMedian = 20;
/** Centroid moves are counted between frames that both have at least this share of highlight. */
const minTrackedShare = 0.005;

function otsu(frame: Uint8Array): number {
  const histogram = new Float64Array(256);
  for (const v of frame) histogram[v]! += 1;
  const total = frame.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * histogram[i]!;
  let sumBack = 0;
  let weightBack = 0;
  let best = 0;
  let threshold = 127;
  for (let t = 0; t < 256; t++) {
    weightBack += histogram[t]!;
    if (weightBack === 0) continue;
    const weightFore = total - weightBack;
    if (weightFore === 0) break;
    sumBack += t * histogram[t]!;
    const meanBack = sumBack / weightBack;
    const meanFore = (sum - sumBack) / weightFore;
    const between = weightBack * weightFore * (meanBack - meanFore) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/**
 * The card in one frame: the largest 4-connected region brighter than the frame's Otsu threshold, kept when it
 * is big (at least 4% of the frame), fills most of its bounding box and has a card-like aspect ratio.
 */
export function findCard(frame: Uint8Array, width: number, height: number): CardBox | null {
  const threshold = Math.max(60, otsu(frame));
  const label = new Int32Array(frame.length);
  const stack = new Int32Array(frame.length);
  let best: (CardBox & { area: number }) | null = null;
  let next = 0;
  for (let start = 0; start < frame.length; start++) {
    if (label[start] !== 0 || frame[start]! <= threshold) continue;
    next++;
    let top = 0;
    stack[top++] = start;
    label[start] = next;
    let area = 0;
    let minX = width;
    let maxX = 0;
    let minY = height;
    let maxY = 0;
    while (top > 0) {
      const p = stack[--top]!;
      area++;
      const x = p % width;
      const y = (p - x) / width;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      const neighbours = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, y > 0 ? p - width : -1, y < height - 1 ? p + width : -1];
      for (const q of neighbours) {
        if (q >= 0 && label[q] === 0 && frame[q]! > threshold) {
          label[q] = next;
          stack[top++] = q;
        }
      }
    }
    if (!best || area > best.area) best = { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1, area };
  }
  if (!best) return null;
  const aspect = Math.max(best.width, best.height) / Math.min(best.width, best.height);
  const fill = best.area / (best.width * best.height);
  if (best.area < 0.04 * frame.length || fill < 0.55 || aspect < 1.2 || aspect > 2.2) return null;
  return { x: best.x, y: best.y, width: best.width, height: best.height };
}

/** The card box resampled (bilinear) to the grid; a portrait box is read rotated so the grid stays landscape. */
export function resampleCard(frame: Uint8Array, width: number, box: CardBox): Uint8Array {
  const out = new Uint8Array(gridWidth * gridHeight);
  const portrait = box.height > box.width;
  for (let gy = 0; gy < gridHeight; gy++) {
    for (let gx = 0; gx < gridWidth; gx++) {
      const u = (gx + 0.5) / gridWidth;
      const v = (gy + 0.5) / gridHeight;
      const fx = box.x + (portrait ? v : u) * box.width - 0.5;
      const fy = box.y + (portrait ? 1 - u : v) * box.height - 0.5;
      const x0 = Math.max(0, Math.floor(fx));
      const y0 = Math.max(0, Math.floor(fy));
      const x1 = Math.min(box.x + box.width - 1, x0 + 1);
      const y1 = Math.min(box.y + box.height - 1, y0 + 1);
      const ax = Math.min(1, Math.max(0, fx - x0));
      const ay = Math.min(1, Math.max(0, fy - y0));
      const top = frame[y0 * width + x0]! * (1 - ax) + frame[y0 * width + x1]! * ax;
      const bottom = frame[y1 * width + x0]! * (1 - ax) + frame[y1 * width + x1]! * ax;
      out[gy * gridWidth + gx] = Math.round(top * (1 - ay) + bottom * ay);
    }
  }
  return out;
}

function median(values: Uint8Array): number {
  const sorted = Uint8Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface HighlightDetails {
  framesTracked: number;
  /** Share of the card in highlight, per tracked frame. */
  highlightShare: number[];
  meanHighlightShare: number;
  /** Mean share of the card whose highlight state changed from one tracked frame to the next. */
  meanFrameChange: number;
  /** Distance the highlight centroid travelled, in card widths. */
  highlightTravel: number;
  /** Mean card box (video pixels) and how much it moved (share of its width). */
  card: (CardBox & { drift: number }) | null;
}

export type HighlightMeasure = HologramMeasure & HighlightDetails & { threshold: number };

const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * highlightChange is the share of the card that moving highlights swept during the video (pixels that were a
 * highlight in some frame but not in most), less the largest share any single frame shows. Passed at `threshold` or more with a highlight that travelled;
 * failed when the card was followed but its highlights did not change; not checked when the card was not found
 * in enough frames.
 */
export function measureHighlights(video: SampledFrames, threshold: number): HighlightMeasure {
  const { width, height, frames } = video;
  const boxes = frames.map((f) => findCard(f, width, height));
  const tracked = frames.flatMap((f, i) => (boxes[i] ? [resampleCard(f, width, boxes[i]!)] : []));
  const trackedBoxes = boxes.filter((b): b is CardBox => b !== null);
  const base = { framesAnalysed: frames.length, framesTracked: tracked.length, threshold };
  if (tracked.length < Math.max(4, Math.ceil(frames.length / 2))) {
    return {
      ...base,
      outcome: 'not_checked',
      highlightChange: 0,
      detail: `the card was found in ${tracked.length} of ${frames.length} frames`,
      highlightShare: [],
      meanHighlightShare: 0,
      meanFrameChange: 0,
      highlightTravel: 0,
      card: null,
    };
  }

  const cells = gridWidth * gridHeight;
  const medians = new Float32Array(cells);
  const column = new Uint8Array(tracked.length);
  for (let p = 0; p < cells; p++) {
    for (let t = 0; t < tracked.length; t++) column[t] = tracked[t]![p]!;
    medians[p] = median(column);
  }
  // The outer cells hold the box's edge, where the table shows through a slightly turned card.
  const inner = (p: number) => {
    const x = p % gridWidth;
    const y = (p - x) / gridWidth;
    return x >= 2 && x < gridWidth - 2 && y >= 2 && y < gridHeight - 2;
  };
  const innerCells = (gridWidth - 4) * (gridHeight - 4);
  const swept = new Uint8Array(cells);
  const shares: number[] = [];
  let previous: Uint8Array | null = null;
  let changeSum = 0;
  let travel = 0;
  let lastCentroid: [number, number] | null = null;
  for (const grid of tracked) {
    const mask = new Uint8Array(cells);
    let count = 0;
    let cx = 0;
    let cy = 0;
    for (let p = 0; p < cells; p++) {
      if (!inner(p)) continue;
      const v = grid[p]!;
      if (v >= saturationLevel && v - medians[p]! >= riseOverMedian) {
        mask[p] = 1;
        swept[p] = 1;
        count++;
        cx += p % gridWidth;
        cy += Math.floor(p / gridWidth);
      }
    }
    const share = count / innerCells;
    shares.push(share);
    if (previous) {
      let changed = 0;
      for (let p = 0; p < cells; p++) if (mask[p] !== previous[p]) changed++;
      changeSum += changed / innerCells;
    }
    previous = mask;
    if (share >= minTrackedShare) {
      const centroid: [number, number] = [cx / count / gridWidth, cy / count / gridHeight];
      if (lastCentroid) travel += Math.hypot(centroid[0] - lastCentroid[0], (centroid[1] - lastCentroid[1]) * (gridHeight / gridWidth));
      lastCentroid = centroid;
    } else {
      lastCentroid = null;
    }
  }
  let sweptCount = 0;
  for (let p = 0; p < cells; p++) sweptCount += swept[p]!;
  // A highlight that stays put covers in any one frame all it ever covers: only what the highlights swept beyond
  // the largest single frame's highlight is change.
  const highlightChange = Math.max(0, sweptCount / innerCells - Math.max(...shares));
  const meanBox = {
    x: Math.round(trackedBoxes.reduce((s, b) => s + b.x, 0) / trackedBoxes.length),
    y: Math.round(trackedBoxes.reduce((s, b) => s + b.y, 0) / trackedBoxes.length),
    width: Math.round(trackedBoxes.reduce((s, b) => s + b.width, 0) / trackedBoxes.length),
    height: Math.round(trackedBoxes.reduce((s, b) => s + b.height, 0) / trackedBoxes.length),
  };
  const drift = Math.max(...trackedBoxes.map((b) => Math.hypot(b.x - meanBox.x, b.y - meanBox.y))) / meanBox.width;
  const moved = travel >= 0.1;
  const outcome: CheckOutcome = highlightChange >= threshold && moved ? 'passed' : 'failed';
  return {
    ...base,
    outcome,
    highlightChange: round(highlightChange),
    detail:
      outcome === 'passed'
        ? `moving highlights swept ${Math.round(highlightChange * 100)}% of the card`
        : highlightChange < threshold
          ? `highlights swept ${Math.round(highlightChange * 100)}% of the card, ${Math.round(threshold * 100)}% needed`
          : 'the highlights did not move across the card',
    highlightShare: shares.map((s) => round(s)),
    meanHighlightShare: round(shares.reduce((s, v) => s + v, 0) / shares.length),
    meanFrameChange: round(tracked.length > 1 ? changeSum / (tracked.length - 1) : 0),
    highlightTravel: round(travel, 3),
    card: { ...meanBox, drift: round(drift, 3) },
  };
}
