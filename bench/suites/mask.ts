// The 'Se detectó cubrebocas' check on generated inputs: every face of @kyc/fixtures with each cover of
// face-mask.ts (and none), as the face photo of /v1/otp (stills, neutral and warm light), as 9 s face videos
// (the whole video decision), and the holder photos read from the ID fronts. Detected rate per cover, false
// positives on the unmasked faces.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { faceMessages } from '@kyc/contracts';
import { buildDocument, FACE_COVERS, FACES, faceFrameJpeg, writeFaceVideo, type FaceCover } from '@kyc/fixtures';
import sharp from 'sharp';
import { analyseVideo } from '../../apps/server/src/features/face-video/analyse.js';
import { frameCovered, measureCover, type CoverMeasures } from '../../apps/server/src/features/face-video/face-cover.js';
import { noSpeechRecognizer } from '../../apps/server/src/engines/speech/spoken-code.js';
import { createFaceEngine } from '../../apps/server/src/engines/face/engine.js';
import type { FaceEngine } from '../../apps/server/src/engines/face/types.js';
import { decodeMedia } from '../../apps/server/src/engines/media/decode.js';
import { createOcrEngine } from '../../apps/server/src/engines/ocr/engine.js';
import type { SuiteResult } from '../run.js';
import { CARD_SEEDS, REFERENCE } from './card-faces.js';

type Cover = FaceCover | 'none';
const COVERS: Cover[] = ['none', ...FACE_COVERS];
type Verdict = 'mask' | 'no face' | 'several faces' | 'other' | 'clear';
/** Every cover measure taken, written next to the temporary files for calibration. */
const raw: Array<{ input: string; covers: Array<CoverMeasures | null> }> = [];

/** The /v1/otp photo check (features/face-video/routes.ts checkCodePhoto) on a JPEG. */
async function photoVerdict(engine: FaceEngine, jpeg: Buffer, input: string): Promise<Verdict> {
  const { data, info } = await sharp(jpeg).rotate().removeAlpha().resize({ width: 640, height: 640, fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  const image = { data, width: info.width, height: info.height };
  const { faces } = await engine.analyse(image, 'track');
  if (faces.length === 0) return 'no face';
  if (faces.length > 1) return 'several faces';
  const cover = measureCover(image, faces[0]!);
  raw.push({ input, covers: [cover ?? null] });
  return cover && frameCovered(cover) ? 'mask' : 'clear';
}

function tally(rows: Array<{ cover: Cover; verdict: Verdict }>, cover: Cover) {
  const of = rows.filter((r) => r.cover === cover);
  const count = (v: Verdict) => of.filter((r) => r.verdict === v).length;
  return { n: of.length, mask: count('mask'), noFace: count('no face'), other: of.length - count('mask') - count('no face') - count('clear'), clear: count('clear') };
}

const pct = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(0)}% (${k}/${n})` : 'n/a');

export async function maskCheck(): Promise<SuiteResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-mask-'));
  const engine = await createFaceEngine();
  const lines: string[] = [];
  const started = Date.now();
  try {
    // Stills: the face photo sent to /v1/otp.
    const stills: Array<{ face: string; light: string; cover: Cover; verdict: Verdict }> = [];
    for (const face of FACES) {
      for (const light of ['neutral', 'warm'] as const) {
        for (const cover of COVERS) {
          const jpeg = await faceFrameJpeg(face.id, { light, ...(cover === 'none' ? {} : { cover }) });
          stills.push({ face: face.id, light, cover, verdict: await photoVerdict(engine, jpeg, `photo ${face.id} ${cover} ${light}`) });
        }
      }
    }

    // The holder photos cropped from the ID fronts (unmasked).
    const ocr = await createOcrEngine();
    const idPhotos: Array<{ face: string; verdict: Verdict }> = [];
    try {
      for (const [faceId, seed] of Object.entries(CARD_SEEDS)) {
        const doc = await buildDocument('ine', 0, { seed: String(seed), referenceDate: REFERENCE });
        const front = doc.sides.find((s) => s.side === 'front')!;
        const read = await ocr.read({ image: front.png, side: 'front' });
        if (!read.faceCrop) continue;
        idPhotos.push({ face: faceId, verdict: await photoVerdict(engine, await sharp(read.faceCrop).jpeg({ quality: 90 }).toBuffer(), `id ${faceId}`) });
      }
    } finally {
      await ocr.close();
    }

    // Videos: the whole decision (no holder: the capture judgement is what is measured here).
    const videos: Array<{ face: string; light: string; cover: Cover; verdict: Verdict; detail: string; ms: number }> = [];
    const runs: Array<{ cover: Cover; light: 'neutral' | 'warm' }> = [
      { cover: 'none', light: 'neutral' },
      { cover: 'none', light: 'warm' },
      ...FACE_COVERS.map((cover) => ({ cover, light: 'neutral' as const })),
    ];
    for (const face of FACES) {
      for (const { cover, light } of runs) {
        const files = await writeFaceVideo({ faceId: face.id, kind: 'live', outDir: dir, seed: 7, light, ...(cover === 'none' ? {} : { cover }) });
        const t0 = Date.now();
        const media = await decodeMedia({ buffer: await readFile(files.video) });
        const { outcome, measures } = await analyseVideo(engine, media, null, { code: '4729', threshold: 0.5, speech: noSpeechRecognizer });
        const ms = Date.now() - t0;
        raw.push({ input: `video ${face.id} ${cover} ${light}`, covers: measures.map((m) => m.face?.cover ?? null) });
        const message = outcome.kind === 'capture_problem' ? outcome.message : '';
        const verdict: Verdict =
          message === faceMessages.mask
            ? 'mask'
            : message === faceMessages.noFace
              ? 'no face'
              : message === faceMessages.multipleFaces
                ? 'several faces'
                : message === faceMessages.comparisonFailed
                  ? 'clear' // passed the capture judgement, stopped for lack of a holder photo
                  : 'other';
        videos.push({ face: face.id, light, cover, verdict, detail: 'detail' in outcome ? outcome.detail : '', ms });
        await rm(files.video, { force: true });
      }
    }

    const rawFile = path.join(os.tmpdir(), 'bench-mask-measures.json');
    await writeFile(rawFile, JSON.stringify(raw));
    const header = '| cover | photos (/v1/otp), neutral + warm light: "cubrebocas" | no face found | other | videos (9 s, whole decision): "cubrebocas" | no face found | other |';
    lines.push(
      `${FACES.length} faces of @kyc/fixtures; covers drawn by face-mask.ts at each face's measured landmarks; photos 640x480 JPEG q90 as /v1/otp receives them, in neutral and warm (R×1.08 G×0.93 B×0.72) light; videos 640x480 VP8 15 fps from writeFaceVideo (head motion, blinks, the jaw moving with the spoken digits). "no face found" = the face detector (blazeface) did not find the covered face: the user gets 'No se encontró rostro' instead, also a recoverable message. Run time ${((Date.now() - started) / 60000).toFixed(1)} min.`,
      '',
      header,
      '|---|---|---|---|---|---|---|',
    );
    for (const cover of COVERS) {
      const s = tally(stills, cover);
      const v = tally(
        videos.filter((r) => r.light === 'neutral'),
        cover,
      );
      lines.push(`| ${cover === 'none' ? 'none (false positives)' : cover} | ${pct(s.mask, s.n)} | ${s.noFace} | ${s.other} | ${pct(v.mask, v.n)} | ${v.noFace} | ${v.other} |`);
    }
    const warm = tally(
      videos.filter((r) => r.light === 'warm'),
      'none',
    );
    const ids = idPhotos.filter((r) => r.verdict === 'mask').length;
    const unmaskedVideos = videos.filter((r) => r.cover === 'none');
    const unmaskedStills = stills.filter((r) => r.cover === 'none');
    const falsePositives = [...unmaskedVideos, ...unmaskedStills].filter((r) => r.verdict === 'mask').length + ids;
    const maskedVideos = videos.filter((r) => r.cover !== 'none');
    const ms = videos.map((v) => v.ms).sort((a, b) => a - b);
    lines.push(
      '',
      '| figure | value |',
      '|---|---|',
      `| false positives on unmasked inputs (photos neutral + warm, videos neutral + warm with moving mouths, ID holder photos) | **${falsePositives}** of ${unmaskedStills.length + unmaskedVideos.length + idPhotos.length} |`,
      `| unmasked live videos under warm light judged "cubrebocas" | ${warm.mask} / ${warm.n} |`,
      `| ID holder photos (cropped by the OCR engine from generated INE fronts) judged "cubrebocas" | ${ids} / ${idPhotos.length} |`,
      `| masked videos (all covers) answered "cubrebocas" / "no face" / passed | ${maskedVideos.filter((r) => r.verdict === 'mask').length} / ${maskedVideos.filter((r) => r.verdict === 'no face').length} / ${maskedVideos.filter((r) => r.verdict === 'clear').length} of ${maskedVideos.length} |`,
      `| decision time without a holder (decode + track + measures + judgement), p50 / max | ${ms[Math.floor(ms.length / 2)]} ms / ${ms[ms.length - 1]} ms |`,
      '',
      'Misses (masked inputs not answered "cubrebocas"):',
      ...[
        ...stills.filter((r) => r.cover !== 'none' && r.verdict !== 'mask').map((r) => `- photo ${r.face} ${r.cover} (${r.light}): ${r.verdict}`),
        ...maskedVideos.filter((r) => r.verdict !== 'mask').map((r) => `- video ${r.face} ${r.cover}: ${r.verdict}${r.detail ? ` (${r.detail})` : ''}`),
      ],
      '',
      'False positives:',
      ...[
        ...unmaskedStills.filter((r) => r.verdict === 'mask').map((r) => `- photo ${r.face} (${r.light})`),
        ...unmaskedVideos.filter((r) => r.verdict === 'mask').map((r) => `- video ${r.face} (${r.light}): ${r.detail}`),
        ...idPhotos.filter((r) => r.verdict === 'mask').map((r) => `- ID photo ${r.face}`),
      ],
      falsePositives === 0 ? '- none' : '',
    );
    return { title: "Mask check ('Se detectó cubrebocas'): detection per cover, false positives (generated inputs)", lines };
  } finally {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
}
