/**
 * Measuring a face comparison on labelled faces: genuine (same identity) and impostor (different identity) pair
 * scores, their distributions, the equal-error rate and the false-reject rate at a false-accept target. Pure; the
 * bench (bench/suites/face-real.ts) and the calibration in docs/decisions.md use it. A score at or above the
 * threshold is an accept.
 */

export interface LabelledFace {
  /** Where the face comes from (file, and face index for a group photo). */
  id: string;
  /** Identity label; undefined for an unlabelled face, usable as an impostor only. */
  identity?: string;
  descriptor: readonly number[];
}

export interface PairScores {
  genuine: number[];
  impostor: number[];
}

/**
 * All same-identity pairs (genuine) and all different-identity pairs (impostor) of the labelled faces, plus each
 * unlabelled face against every labelled one and the `impostorOnly` pairs the caller knows are different people.
 */
export function pairScores(
  faces: readonly LabelledFace[],
  similarity: (a: readonly number[], b: readonly number[]) => number,
  impostorOnly: ReadonlyArray<readonly [LabelledFace, LabelledFace]> = [],
): PairScores {
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (let i = 0; i < faces.length; i += 1) {
    for (let j = i + 1; j < faces.length; j += 1) {
      const a = faces[i]!;
      const b = faces[j]!;
      if (a.identity === undefined && b.identity === undefined) continue;
      const score = similarity(a.descriptor, b.descriptor);
      if (a.identity !== undefined && a.identity === b.identity) genuine.push(score);
      else impostor.push(score);
    }
  }
  for (const [a, b] of impostorOnly) impostor.push(similarity(a.descriptor, b.descriptor));
  return { genuine, impostor };
}

/** Share of impostor scores accepted at `threshold` (score >= threshold). */
export function falseAcceptRate(impostor: readonly number[], threshold: number): number {
  return impostor.length === 0 ? 0 : impostor.filter((s) => s >= threshold).length / impostor.length;
}

/** Share of genuine scores refused at `threshold` (score < threshold). */
export function falseRejectRate(genuine: readonly number[], threshold: number): number {
  return genuine.length === 0 ? 0 : genuine.filter((s) => s < threshold).length / genuine.length;
}

/** Candidate thresholds: every observed score and a point just above the highest one. */
function candidates(scores: PairScores): number[] {
  const all = [...scores.genuine, ...scores.impostor].sort((a, b) => a - b);
  const top = all.length ? all[all.length - 1]! : 0;
  return [...new Set(all), top + 1e-9];
}

export interface EqualError {
  /** The mean of FAR and FRR where they are closest. */
  rate: number;
  threshold: number;
  far: number;
  frr: number;
}

/**
 * Equal-error rate: the threshold where false accepts and false rejects are closest; the rate is their mean
 * there. When the sets do not overlap it is 0, at the midpoint of the gap.
 */
export function equalErrorRate(scores: PairScores): EqualError {
  if (scores.genuine.length === 0 || scores.impostor.length === 0) throw new Error('equal-error rate needs genuine and impostor scores');
  const lowestGenuine = Math.min(...scores.genuine);
  const highestImpostor = Math.max(...scores.impostor);
  if (lowestGenuine > highestImpostor) return { rate: 0, threshold: (lowestGenuine + highestImpostor) / 2, far: 0, frr: 0 };
  let best: EqualError | undefined;
  for (const t of candidates(scores)) {
    const far = falseAcceptRate(scores.impostor, t);
    const frr = falseRejectRate(scores.genuine, t);
    if (!best || Math.abs(far - frr) < Math.abs(best.far - best.frr)) best = { rate: (far + frr) / 2, threshold: t, far, frr };
  }
  return best!;
}

/**
 * The lowest threshold whose false-accept rate is at most `maxFar`, and the false-reject rate it costs. With fewer
 * impostor pairs than 1 / maxFar this is the threshold just above the highest impostor score (any accepted
 * impostor would exceed the target).
 */
export function rejectsAtFar(scores: PairScores, maxFar: number): { threshold: number; far: number; frr: number } {
  let best: { threshold: number; far: number; frr: number } | undefined;
  for (const t of candidates(scores)) {
    const far = falseAcceptRate(scores.impostor, t);
    if (far <= maxFar && (!best || t < best.threshold)) best = { threshold: t, far, frr: falseRejectRate(scores.genuine, t) };
  }
  return best!;
}

export interface Distribution {
  count: number;
  min: number;
  p05: number;
  median: number;
  p95: number;
  max: number;
}

/** Nearest-rank quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return { count: 0, min: NaN, p05: NaN, median: NaN, p95: NaN, max: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { count: sorted.length, min: sorted[0]!, p05: quantile(sorted, 0.05), median, p95: quantile(sorted, 0.95), max: sorted[sorted.length - 1]! };
}

export interface Separation {
  genuine: Distribution;
  impostor: Distribution;
  eer: EqualError;
  atFar: { threshold: number; far: number; frr: number };
  /** FAR and FRR at a given (shipped) threshold. */
  atThreshold?: { threshold: number; far: number; frr: number };
}

/** Everything the bench reports for one set of pair scores. */
export function separation(scores: PairScores, maxFar = 0.001, threshold?: number): Separation {
  const result: Separation = {
    genuine: distribution(scores.genuine),
    impostor: distribution(scores.impostor),
    eer: equalErrorRate(scores),
    atFar: rejectsAtFar(scores, maxFar),
  };
  if (threshold !== undefined) {
    result.atThreshold = { threshold, far: falseAcceptRate(scores.impostor, threshold), frr: falseRejectRate(scores.genuine, threshold) };
  }
  return result;
}
