/**
 * The face-video decision on decoded media: track the face in every sampled frame, judge the capture, the
 * liveness and the face match against the holder's photo from the ID, and check the spoken code when a
 * recogniser is installed. No IO besides the face engine.
 */
import { faceMessages } from '@kyc/contracts';
import sharp from 'sharp';
import type { FaceEngine, FaceObservation, RgbImage } from '../../engines/face/types.js';
import { faceSimilarity } from '../../engines/face/similarity.js';
import type { DecodedMedia } from '../../engines/media/decode.js';
import type { VideoTokenDecision } from '../../domain/evidence-kinds.js';
import { measureFrame, type FrameMeasures } from './frame-measures.js';
import { readingPrint, type ReadingPrint } from './reading-print.js';
import { speechBandEnvelope } from '../../engines/media/speech-band.js';
import { challengeWindow, judgeLiveness, livenessSignals, type ChallengeWindow, type LivenessSignals, type LivenessVerdict } from './liveness.js';
import type { VideoTokenOutcome } from './outcome.js';
import { judgeQuality, type QualityProblem } from './quality.js';
import { screenSignals, type ScreenFrame, type ScreenSignals } from './screen-replay.js';
import type { SpeechRecognizer, SpokenCodeCheck } from '../../engines/speech/spoken-code.js';

/**
 * Frames described per video (each ~200 ms of one core): 3 since the fixed-box tracker (docs/decisions.md, "A
 * fixed-box face tracker"): the real 10 s video scores 0.851 against its photo with 3 (0.861 with 4, 0.844 with
 * 4 before the tracker chose other frames), and a decision fits in 2 CPU-seconds.
 */
export const DESCRIBED_FRAMES = 3;

export interface AnalyseOptions {
  code: string;
  /** Cosine similarity at or above which the video's face is the ID holder's (UMBRAL_ROSTRO). */
  threshold: number;
  speech: SpeechRecognizer;
  window?: ChallengeWindow;
  /** Frames described (descriptor + passive scores), the best of each stretch of the video (default DESCRIBED_FRAMES). */
  describedFrames?: number;
}

export interface VideoAnalysis {
  outcome: VideoTokenOutcome;
  decision: VideoTokenDecision;
  timingsMs: Record<string, number>;
  /** Embeddings of the described frames (for measuring the same video against other holders). */
  embeddings: number[][];
  /** The measures of every sampled frame (for measuring the capture judgement). */
  measures: FrameMeasures[];
  /** The screen-replay evidence (also in decision.liveness.signals), and the frames it was measured on. */
  screen: ScreenSignals;
  screenFrames: ScreenFrame[];
  /** The print of an accepted reading's answers (reading-print.ts); undefined for another outcome, fewer than two answers or no sound. */
  print: ReadingPrint | undefined;
}

function largest(faces: readonly FaceObservation[]): FaceObservation | undefined {
  return [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
}

/** The embedding of the holder's photo (the face cropped from the ID front), or null if no face is found in it. */
export async function holderEmbedding(engine: FaceEngine, photo: Buffer): Promise<number[] | null> {
  const { data, info } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const analysis = await engine.analyse({ data, width: info.width, height: info.height }, 'describe');
  return largest(analysis.faces)?.embedding ?? null;
}

/**
 * Indices of the `count` frames to describe: the one-face frames are cut into `count` consecutive stretches and each
 * gives its best frame for a descriptor, the sharpest and most frontal one with the mouth least open (a frame with
 * the mouth open or the head turned scores its own holder lower; docs/decisions.md). Stretches keep the frames
 * apart in time, so one bad moment cannot supply them all.
 */
export function chooseDescribedFrames(frames: readonly FrameMeasures[], count: number): number[] {
  const candidates = frames.map((f, i) => (f.face ? i : -1)).filter((i) => i >= 0);
  if (candidates.length <= count) return candidates;
  const sharpness = candidates.map((i) => frames[i]!.face!.sharpness).sort((a, b) => a - b);
  const typical = Math.max(1e-6, sharpness[Math.floor(sharpness.length / 2)]!);
  const quality = (i: number) => {
    const face = frames[i]!.face!;
    return Math.min(face.sharpness / typical, 1.5) - 2 * (Math.abs(face.yaw) + Math.abs(face.pitch)) - 2 * face.mouthOpening;
  };
  return Array.from({ length: count }, (_, k) => {
    const stretch = candidates.slice(Math.floor((k * candidates.length) / count), Math.floor(((k + 1) * candidates.length) / count));
    return stretch.reduce((best, i) => (quality(i) > quality(best) ? i : best));
  });
}

const median = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The face score of the decision: median similarity (faceSimilarity) of the holder's photo against the described frames (null without frames). */
export function matchScore(holder: readonly number[], frames: readonly number[][]): number | null {
  return median(frames.map((embedding) => faceSimilarity(holder, embedding)));
}

const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

function signalRecord(s: LivenessSignals, verdict: LivenessVerdict, passive: { real: number | null; live: number | null }) {
  const record: Record<string, number | boolean | string> = {
    verdict: verdict.kind === 'live' ? 'live' : `${verdict.kind}: ${verdict.reason}`,
    frames: s.frames,
    faceFrames: s.faceFrames,
    identicalShare: round(s.identicalShare),
    repeatShare: round(s.repeatShare),
    frozen: s.frozen,
    looped: s.looped,
    mouthRange: round(s.mouthRange),
    mouthPeaks: s.mouthPeaks,
    mouthActive: s.mouthActive,
    speechSlots: s.speechSlots,
    speechActive: s.speechActive,
    sync: s.sync === null ? 'n/a' : round(s.sync),
    synced: s.synced,
    headMotion: round(s.headMotion, 4),
    blinks: s.blinks,
    naturalMotion: s.naturalMotion,
    scheduleFollowed: s.schedule.followed,
    scheduleAnswered: `${s.schedule.answered}/${s.schedule.digits}`,
    scheduleLatenciesMs: s.schedule.latenciesMs.join(','),
    scheduleAnswersMs: s.schedule.answers.map((u) => `${u.onMs}-${u.offMs}`).join(','),
    scheduleLatencySpreadMs: s.schedule.latencySpreadMs,
    scheduleStrayMs: s.schedule.strayMs,
    scheduleLongestAnswerMs: s.schedule.longestAnswerMs,
    scheduleMouth: `${s.schedule.mouthOpened} opened, ${s.schedule.mouthRested}/${s.schedule.gapsSeen} rested, ${s.schedule.mouthStrayFrames} stray`,
    ...(s.prompts?.length ? { prompts: s.prompts.map((p) => `${p.motion}@${p.atMs}: ${p.done ? 'done' : 'missed'} (${round(p.shift)})`).join('; ') } : {}),
    ...(s.screen ? screenRecord(s.screen) : {}),
  };
  if (passive.real !== null) record.passiveReal = round(passive.real);
  if (passive.live !== null) record.passiveLive = round(passive.live);
  return record;
}

/** The screen-replay evidence as stored with the decision (screen-replay.ts; technical detail in English). */
export function screenRecord(screen: ScreenSignals): Record<string, number | string> {
  return {
    screenFrames: screen.framesMeasured,
    screenMoire: round(screen.moire, 2),
    screenBanding: round(screen.banding, 2),
    screenBezelSides: screen.bezelSides,
    screenDarkFrameSides: screen.darkFrameSides,
    screenGlare: round(screen.glare, 4),
    screenBlueCast: round(screen.blueCast, 3),
    screenStrong: screen.strong.join(',') || 'none',
    screenVerdict: screen.verdict,
    screenMs: Math.round(screen.ms),
  };
}

/** The frames with their largest face, for screenSignals. */
export function screenFrames(media: DecodedMedia, faces: ReadonlyArray<readonly FaceObservation[]>): ScreenFrame[] {
  return media.frames.map((frame, i) => ({ image: frame.image, face: largest(faces[i] ?? [])?.box ?? null }));
}

export interface OutcomeInputs {
  quality: QualityProblem | null;
  holderFound: boolean;
  verdict: LivenessVerdict;
  faceScore: number | null;
  threshold: number;
  spoken: SpokenCodeCheck;
}

/**
 * The outcome of the measured signals, in order: capture, holder photo, spoof, face match, liveness, then the
 * spoken code. A recogniser that ran and did not hear the code is the spec's phrase failure; one that could not
 * run (verified null) leaves the decision to the liveness timing. Pure.
 */
export function videoOutcome(inputs: OutcomeInputs): VideoTokenOutcome {
  const { quality, verdict, faceScore, threshold, spoken } = inputs;
  if (quality) return { kind: 'capture_problem', message: quality.message, detail: quality.detail };
  if (!inputs.holderFound) return { kind: 'capture_problem', message: faceMessages.comparisonFailed, detail: 'no face was found in the photo of the ID' };
  if (verdict.kind === 'spoof') return { kind: 'spoof', detail: verdict.reason };
  if (faceScore === null) return { kind: 'capture_problem', message: faceMessages.comparisonFailed, detail: 'no face could be described in the video' };
  if (faceScore < threshold) return { kind: 'no_match', detail: `face similarity ${round(faceScore)} below ${threshold}` };
  if (verdict.kind === 'not_shown') return { kind: 'not_live', detail: verdict.reason };
  if (spoken.verified === false) return { kind: 'not_live', detail: `the spoken code was not recognised: ${spoken.detail}` };
  return { kind: 'match' };
}

export async function analyseVideo(engine: FaceEngine, media: DecodedMedia, holderInput: number[] | null | Promise<number[] | null>, options: AnalyseOptions): Promise<VideoAnalysis> {
  const timings: Record<string, number> = {};
  let started = Date.now();
  const window = options.window ?? challengeWindow();
  // The frames in order (the engine splits them into one run per worker).
  const tracked = await engine.track(media.frames.map((frame) => frame.image));
  const measures: FrameMeasures[] = media.frames.map((frame, i) => measureFrame(frame.timeMs, frame.image, tracked[i]!.faces));
  const images: RgbImage[] = media.frames.map((frame) => frame.image);
  timings.track = Date.now() - started;
  const holder = await holderInput;

  started = Date.now();
  const embeddings: number[][] = [];
  const real: number[] = [];
  const live: number[] = [];
  const quality = judgeQuality(measures);
  const chosen = !quality && holder ? chooseDescribedFrames(measures, options.describedFrames ?? DESCRIBED_FRAMES) : [];
  if (chosen.length > 0) {
    const described = await Promise.all(chosen.map((index) => engine.analyse(images[index]!, 'describe')));
    for (const analysis of described) {
      const face = largest(analysis.faces);
      if (face?.embedding) embeddings.push(face.embedding);
      if (face?.real !== undefined) real.push(face.real);
      if (face?.live !== undefined) live.push(face.live);
    }
  }
  timings.describe = Date.now() - started;

  started = Date.now();
  const envelope = media.audio ? { stepMs: media.audio.envelopeStepMs, rms: media.audio.envelope } : null;
  const signals = livenessSignals(measures, media.thumbnails, envelope, window);
  const framesWithFaces = screenFrames(
    media,
    tracked.map((t) => t.faces),
  );
  const screen = screenSignals(framesWithFaces);
  signals.screen = screen;
  const verdict = judgeLiveness(signals);
  const spoken: SpokenCodeCheck = media.audio
    ? await options.speech.check({ samples: media.audio.samples, sampleRate: media.audio.sampleRate }, options.code)
    : { verified: null, engine: options.speech.name, detail: 'the video has no sound track' };
  timings.liveness = Date.now() - started;

  const faceScore = holder ? matchScore(holder, embeddings) : null;
  const outcome = videoOutcome({ quality, holderFound: holder !== null, verdict, faceScore, threshold: options.threshold, spoken });

  const decision: VideoTokenDecision = {
    match: outcome.kind === 'match',
    faceScore: faceScore === null ? null : round(faceScore, 4),
    threshold: options.threshold,
    ...(chosen.length > 0 ? { describedFramesMs: chosen.map((index) => measures[index]!.timeMs) } : {}),
    liveness: {
      passed: verdict.kind === 'live',
      spoof: verdict.kind === 'spoof',
      signals: signalRecord(signals, verdict, { real: median(real), live: median(live) }),
    },
    spokenCode: spoken,
  };
  return {
    outcome,
    decision,
    timingsMs: timings,
    embeddings,
    measures,
    screen,
    screenFrames: framesWithFaces,
    // Kept and compared only for a match (features/face-video/index.ts): the band's filter is not run for the rest.
    print: outcome.kind === 'match' && media.audio ? readingPrint(signals.schedule.answers, speechBandEnvelope(media.audio)) : undefined,
  };
}
