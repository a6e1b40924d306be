import { copyFile, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { generateFixtureSet, writeFaceVideo, type GroundTruth } from '@kyc/fixtures';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { faceLoopMs, recordingStartMs, testSchedule } from './code-timing.js';
import { fixtureDay } from './fixture-day.js';

export { alignCodeWithCamera, testSchedule, testScheduleEnv } from './code-timing.js';

/**
 * The generated ID holder and the fake camera and microphone files of the face-video journeys.
 *
 * Chromium reads its fake files (--use-file-for-fake-video-capture / -audio-capture) from fixed paths set at launch,
 * and reopens them from their beginning whenever the flow opens the camera. A journey that needs the ID card and
 * then the face in one browser therefore swaps what those paths hold between the phases (FakeMedia.show / play).
 */

export interface FaceMedia {
  y4m: string;
  wav: string;
}

export interface Holder {
  /** The ground truth of the INE's front (its name, the face id). */
  front: GroundTruth;
  faceId: string;
  /** Someone clearly different: the pair the face engine separates (the server's own API test uses it too). */
  strangerFaceId: string;
  frontPng: string;
  backPng: string;
}

/** The INE of seed 22 (clean, valid today) in `work`: the holder whose face the face-video journeys show. */
export async function generateHolder(work: string): Promise<Holder> {
  await generateFixtureSet({ outDir: work, seed: 22, count: 1, kinds: ['ine'], degradations: [], referenceDate: fixtureDay });
  const front = JSON.parse(await readFile(path.join(work, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth;
  const faceId = front.face?.id;
  if (!faceId) throw new Error('the generated INE has no face');
  // Note: fa-s6-b against the seed-33 holder fa-s6-c was accepted as a match by the face engine.
  const strangerFaceId = faceId === 'fa-s3-a' ? 'fa-s5-c' : 'fa-s3-a';
  return { front, faceId, strangerFaceId, frontPng: path.join(work, 'ine-000-front-clean.png'), backPng: path.join(work, 'ine-000-back-clean.png') };
}

/** The generated holder answers each digit this long after it appears (the server accepts 150-1400 ms). */
const answerLatencyMs = 650;

/**
 * The face video the fake camera plays: `faceId` silent until the recording has started, then reading a digit at
 * each of the test schedule's times (counted from where the recording starts in the file, recordingStartMs),
 * `digitTimesMs` to follow another schedule instead (a reading that the server must refuse). `motions`: head turns
 * made at those times (from the recording's start, as a motion prompt's atMs), the file lasting `durationMs`.
 */
export async function readingVideo(
  work: string,
  faceId: string,
  name: string,
  digitTimesMs: readonly number[] = testSchedule.digitsMs,
  options: { motions?: ReadonlyArray<{ motion: 'left' | 'right'; atMs: number }>; durationMs?: number } = {},
): Promise<FaceMedia> {
  const files = await writeFaceVideo({
    faceId,
    kind: 'live',
    code: '4729',
    seed: name,
    durationMs: options.durationMs ?? faceLoopMs,
    ...(options.motions ? { motions: options.motions.map((m) => ({ motion: m.motion, atMs: recordingStartMs + m.atMs })) } : {}),
    digitTimesMs: digitTimesMs.map((t) => recordingStartMs + t),
    reactionMs: [answerLatencyMs, answerLatencyMs + 40, answerLatencyMs - 30, answerLatencyMs + 20],
    fps: 10,
    outDir: work,
    name,
    y4m: true,
    // The camera plays the y4m; the mp4 beside it is only a by-product (faster to encode than VP8).
    format: 'mp4',
  });
  if (!files.y4m) throw new Error('no y4m written');
  return { y4m: files.y4m, wav: files.wav };
}

/** Replaces `to` with a copy of `from` in one rename, so Chromium never reads a half-written file. */
export async function swapFile(from: string, to: string): Promise<void> {
  const staged = `${to}.staged`;
  await copyFile(from, staged);
  await rename(staged, to);
}

/** The fake camera and microphone paths of one browser, in `work`. */
export class FakeMedia {
  readonly camera: string;
  readonly microphone: string;

  constructor(work: string) {
    this.camera = path.join(work, 'camera.y4m');
    this.microphone = path.join(work, 'microphone.wav');
  }

  /** What the camera shows from the next time the flow opens it. */
  show(y4m: string): Promise<void> {
    return swapFile(y4m, this.camera);
  }

  /** What the microphone hears from the next time the flow opens it. */
  hear(wav: string): Promise<void> {
    return swapFile(wav, this.microphone);
  }

  async play(media: FaceMedia): Promise<void> {
    await this.show(media.y4m);
    await this.hear(media.wav);
  }

  /** Chromium reading these paths; they must hold a file each before it starts (a swap later is seen on reopening). */
  launch(): Promise<Browser> {
    return launchBrowser({ videoFile: this.camera, audioFile: this.microphone });
  }
}
