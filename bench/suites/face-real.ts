// Face comparison on real photos (docs/decisions.md "Face match calibrated on real photos"): equal-error rate,
// false rejects at 0.1 % false accepts and the default threshold's false accepts / rejects on every real set
// available (../shared/data/real-dev/faces, the npm packages' group photos as impostors, small grey crops of the
// real faces), the real 10 s video against its reference photo and against other people, the fixture faces next
// to them, and the cost of a decision. Real-dev images are read in place, never copied.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { grantorParamDefaults } from '@kyc/contracts';
import { FACES, faceFrameJpeg, loadFace } from '@kyc/fixtures';
import sharp from 'sharp';
import { analyseVideo, holderEmbedding, matchScore } from '../../apps/server/src/features/face-video/analyse.js';
import { noSpeechRecognizer } from '../../apps/server/src/engines/speech/spoken-code.js';
import { createFaceEngine } from '../../apps/server/src/engines/face/engine.js';
import { labelledFaces, npmGroupPhotos, readIdentities, readRgb, realFacesDir, unlabelledFaces, type FaceSet } from '../../apps/server/src/engines/face/labelled-set.js';
import { pairScores, separation, type LabelledFace, type PairScores } from '../../apps/server/src/engines/face/measure.js';
import { faceSimilarity } from '../../apps/server/src/engines/face/similarity.js';
import type { FaceEngine, FaceObservation, RgbImage } from '../../apps/server/src/engines/face/types.js';
import { decodeMedia } from '../../apps/server/src/engines/media/decode.js';
import type { SuiteResult } from '../run.js';

const THRESHOLD = Number(grantorParamDefaults.UMBRAL_ROSTRO);
const MAX_FAR = 0.001;
/** Decisions timed on the real video (the median is reported). */
const RUNS = 3;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pct = (v: number) => `${(v * 100).toFixed(2)} %`;
const f3 = (v: number) => v.toFixed(3);

function row(name: string, scores: PairScores): string {
  const s = separation(scores, MAX_FAR, THRESHOLD);
  return `| ${name} | ${scores.genuine.length} / ${scores.impostor.length} | ${f3(s.genuine.min)} / ${f3(s.genuine.median)} | ${f3(s.impostor.median)} / ${f3(s.impostor.max)} | ${pct(s.eer.rate)} (${f3(s.eer.threshold)}) | ${pct(s.atFar.frr)} (${f3(s.atFar.threshold)}) | ${pct(s.atThreshold!.far)} / ${pct(s.atThreshold!.frr)} |`;
}

/** A 112 px grey crop around each face (face box x 1.25): the small grey crops of the issue's second set. */
async function greyCrop(file: string, box: FaceObservation['box']): Promise<RgbImage> {
  const meta = await sharp(file).rotate().metadata();
  const width0 = meta.autoOrient?.width ?? meta.width!;
  const height0 = meta.autoOrient?.height ?? meta.height!;
  const side = Math.max(box[2], box[3]) * 1.25;
  const left = Math.max(0, Math.round(box[0] + box[2] / 2 - side / 2));
  const top = Math.max(0, Math.round(box[1] + box[3] / 2 - side / 2));
  const { data } = await sharp(file)
    .rotate()
    .removeAlpha()
    .extract({ left, top, width: Math.min(width0 - left, Math.round(side)), height: Math.min(height0 - top, Math.round(side)) })
    .resize(112, 112, { fit: 'fill' })
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rgb = new Uint8Array(data.length * 3);
  for (let i = 0; i < data.length; i += 1) rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = data[i]!;
  return { data: rgb, width: 112, height: 112 };
}

const largest = (faces: readonly FaceObservation[]) => [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];

async function fixtureScores(engine: FaceEngine): Promise<PairScores> {
  // Genuine: the still frame of a fixture video against the card photo of the same face (the same source photo,
  // which flatters them); impostor: every card photo against every other face's frame.
  const cards: LabelledFace[] = [];
  const frames: LabelledFace[] = [];
  for (const face of FACES) {
    const card = await holderEmbedding(engine, await loadFace(face));
    const frameRgb = await sharp(await faceFrameJpeg(face.id))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const frame = largest((await engine.analyse({ data: frameRgb.data, width: frameRgb.info.width, height: frameRgb.info.height }, 'describe')).faces)?.embedding;
    if (card) cards.push({ id: `card ${face.id}`, identity: face.id, descriptor: card });
    if (frame) frames.push({ id: `frame ${face.id}`, identity: face.id, descriptor: frame });
  }
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (const c of cards) for (const f of frames) (c.identity === f.identity ? genuine : impostor).push(faceSimilarity(c.descriptor, f.descriptor));
  return { genuine, impostor };
}

export async function faceReal(): Promise<SuiteResult> {
  const engine = await createFaceEngine();
  const lines: string[] = [];
  const describe = async (image: RgbImage) => (await engine.analyse(image, 'describe')).faces;
  try {
    const dir = realFacesDir(root);
    const npm = await unlabelledFaces(npmGroupPhotos(), describe);
    lines.push(
      `Default UMBRAL_ROSTRO ${THRESHOLD}; descriptor: faceres + face-api 128-d on an eye-aligned chip (engines/face/descriptor.ts), compared by faceSimilarity. Genuine = every same-identity pair, impostor = every different-identity pair (faces of one npm group photo are different people). Load average before: ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}.`,
      '',
      '| set | genuine / impostor pairs | genuine min / median | impostor median / max | equal-error rate (threshold) | false rejects at ≤ 0.1 % false accepts (threshold) | at the default: false accepts / false rejects |',
      '|---|---|---|---|---|---|---|',
    );
    const within = (set: FaceSet) => pairScores(set.faces, faceSimilarity, set.impostorOnly);
    if (!dir) {
      lines.push('', `- ../shared/data/real-dev/faces is absent: real-photo figures skipped (only the npm impostors and fixtures below).`);
      const npmOnly = within(npm);
      lines.push(`- npm group photos: ${npmOnly.impostor.length} impostor pairs, highest ${f3(Math.max(...npmOnly.impostor))}`);
    } else {
      const photos = readIdentities(dir);
      const real = await labelledFaces(dir, photos, describe);
      const colour = within(real);
      const mixed: FaceSet = { faces: [...real.faces, ...npm.faces], impostorOnly: [...real.impostorOnly, ...npm.impostorOnly], missed: [] };
      lines.push(row(`real-dev colour photos (${real.faces.filter((f) => f.identity).length} faces, ${new Set(real.faces.map((f) => f.identity).filter(Boolean)).size} identities)`, colour));
      lines.push(row('real-dev colour + npm group photos as impostors', within(mixed)));
      // Small grey crops of the same real faces (re-detected in the crop).
      const grey: LabelledFace[] = [];
      for (const photo of photos) {
        if (photo.kind === 'video') continue;
        const file = path.join(dir, photo.file);
        const found = (await describe(await readRgb(file))).filter((f) => f.embedding);
        const labelled = [...found]
          .sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])
          .slice(0, photo.identities.length)
          .sort((a, b) => a.box[0] - b.box[0]);
        for (const [i, face] of labelled.entries()) {
          const again = largest(await describe(await greyCrop(file, face.box)));
          if (again?.embedding) grey.push({ id: `${photo.file}#${i} grey`, identity: photo.identities[photo.kind === 'single' ? 0 : i]!, descriptor: again.embedding });
        }
      }
      lines.push(row(`real-dev faces as 112 px grey crops (${grey.length} faces)`, pairScores(grey, faceSimilarity)));
      lines.push(row('fixture faces (card photo vs video frame of the same source photo)', await fixtureScores(engine)));
      if (real.missed.length) lines.push('', `- photos with fewer faces described than labelled: ${real.missed.join(', ')}`);

      // The real video against its reference photo (genuine) and every other identity's photos (impostors).
      const video = photos.find((p) => p.kind === 'video');
      if (video) {
        const media = await decodeMedia({ buffer: await readFile(path.join(dir, video.file)) });
        const referencePhoto = photos.find((p) => p.kind === 'single' && p.identities[0] === video.identities[0]);
        const holder = referencePhoto ? await holderEmbedding(engine, await readFile(path.join(dir, referencePhoto.file))) : null;
        const latencies: number[] = [];
        const cpu: number[] = [];
        let last: Awaited<ReturnType<typeof analyseVideo>> | undefined;
        for (let run = 0; run < RUNS; run += 1) {
          const started = Date.now();
          const cpuStart = process.cpuUsage();
          const decoded = await decodeMedia({ buffer: await readFile(path.join(dir, video.file)) });
          last = await analyseVideo(engine, decoded, holder, { code: '4729', threshold: THRESHOLD, speech: noSpeechRecognizer });
          latencies.push(Date.now() - started);
          const used = process.cpuUsage(cpuStart);
          cpu.push((used.user + used.system) / 1000);
        }
        const sorted = (v: number[]) => [...v].sort((a, b) => a - b);
        const others = real.faces.filter((f) => f.identity && f.identity !== video.identities[0]);
        const impostorScores = last!.embeddings.length ? others.map((o) => matchScore(o.descriptor, last!.embeddings)!) : [];
        lines.push(
          '',
          `Real video ${video.file} (${media.frames[0]?.image.width}x${media.frames[0]?.image.height} frames, ${media.frames.length} sampled) against ${referencePhoto?.file ?? 'no reference photo'}:`,
          `- decision: ${last!.outcome.kind}${'detail' in last!.outcome ? ` (${last!.outcome.detail})` : ''}; face score ${last!.decision.faceScore ?? 'none'} at threshold ${THRESHOLD}; ${last!.embeddings.length} frames described`,
          `- the same frames against the ${others.length} faces of other identities: highest ${impostorScores.length ? f3(Math.max(...impostorScores)) : 'n/a'}, accepted at the default ${impostorScores.filter((s) => s >= THRESHOLD).length} / ${impostorScores.length}`,
          `- decision cost (decode + track + describe + liveness, ${RUNS} runs): latency p50 ${sorted(latencies)[1]} ms (min ${sorted(latencies)[0]}, max ${sorted(latencies)[2]}), CPU of this process incl. face workers p50 ${Math.round(sorted(cpu)[1]!)} ms (min ${Math.round(sorted(cpu)[0]!)}); ${os.cpus()[0]?.model}, load average after ${os
            .loadavg()
            .map((v) => v.toFixed(2))
            .join(' ')}`,
        );
      }
    }
    return { title: 'Face comparison on real photos: error rates, default threshold, real video (face-real)', lines };
  } finally {
    await engine.close();
  }
}
