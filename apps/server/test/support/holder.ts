import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { faceFrameJpeg, generateFixtureSet, writeFaceVideo, type GroundTruth } from '@kyc/fixtures';
import { followsTestSchedule } from './schedule.js';

/** Seed 22 puts face fa-s6-b on the generated INE; fa-s3-a is somebody else (the face-video tests' stranger). */
export const holderSeed = 22;
export const strangerFace = 'fa-s3-a';

/** A generated INE front (seed 22) in `dir`, its ground truth, and a frame of its holder's face (the code photo). */
export async function generatedHolder(dir: string) {
  await generateFixtureSet({ outDir: dir, seed: holderSeed, count: 1, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26' });
  const truth = JSON.parse(await readFile(path.join(dir, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth;
  const faceId = truth.face!.id;
  return { front: await readFile(path.join(dir, 'ine-000-front-clean.png')), truth, faceId, photo: await faceFrameJpeg(faceId) };
}

/** The bytes of a live reading of the test schedule's code by `faceId` (mp4 unless said), written in `dir`. */
export async function scheduledReading(dir: string, faceId: string, options: Partial<Parameters<typeof writeFaceVideo>[0]> = {}): Promise<Buffer> {
  const written = await writeFaceVideo({ ...followsTestSchedule, faceId, kind: 'live', outDir: dir, seed: holderSeed, format: 'mp4', ...options });
  return readFile(written.video);
}
