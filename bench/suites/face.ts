// Face video decision on generated inputs: latency of a whole decision for a 9 s video (decode + track + match +
// liveness), face-score separation between the ID holder and other people, and how replays are judged.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { grantorParamDefaults } from '@kyc/contracts';
import { buildDocument, writeFaceVideo, type FaceVideoKind } from '@kyc/fixtures';
import { analyseVideo, holderEmbedding } from '../../apps/server/src/domain/video-token/analyse.js';
import { noSpeechRecognizer } from '../../apps/server/src/domain/video-token/speech.js';
import { createFaceEngine, defaultFaceWorkers } from '../../apps/server/src/engines/face/engine.js';
import { cosine } from '../../apps/server/src/engines/face/similarity.js';
import { decodeMedia } from '../../apps/server/src/engines/media/decode.js';
import { createOcrEngine } from '../../apps/server/src/engines/ocr/engine.js';
import type { SuiteResult } from '../run.js';

const REFERENCE = { y: 2026, m: 11, d: 26 };
/** INE seeds whose card carries a face of a large, frontal source photo (the @vladmandic/face-api demo photos). */
const SEEDS = [22, 15, 20, 33, 58, 11];
const KINDS: FaceVideoKind[] = ['live', 'still', 'still-silent', 'loop'];
const THRESHOLD = Number(grantorParamDefaults.UMBRAL_ROSTRO);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const f2 = (v: number) => v.toFixed(2);

export async function faceVideo(): Promise<SuiteResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-face-'));
  const engine = await createFaceEngine();
  const ocr = await createOcrEngine();
  const lines: string[] = [];
  try {
    const people: Array<{ seed: number; faceId: string; holder: number[] }> = [];
    for (const seed of SEEDS) {
      const doc = await buildDocument('ine', 0, { seed: String(seed), referenceDate: REFERENCE });
      const front = doc.sides.find((s) => s.side === 'front')!;
      const read = await ocr.read({ image: front.png, side: 'front' });
      const holder = read.faceCrop ? await holderEmbedding(engine, read.faceCrop) : null;
      if (!doc.face || !holder) {
        lines.push(`- seed ${seed}: no holder photo read from the card (skipped)`);
        continue;
      }
      people.push({ seed, faceId: doc.face.id, holder });
    }
    await ocr.close();

    const latencies: number[] = [];
    const cpu: number[] = [];
    const verdicts: Record<FaceVideoKind, string[]> = { live: [], still: [], 'still-silent': [], loop: [] };
    const same: number[] = [];
    const different: number[] = [];
    const loadBefore = os.loadavg()[0]!;
    for (const person of people) {
      for (const kind of KINDS) {
        const files = await writeFaceVideo({ faceId: person.faceId, kind, outDir: dir, seed: person.seed, code: '4729' });
        const started = Date.now();
        const cpuStart = process.cpuUsage();
        const media = await decodeMedia({ buffer: await readFile(files.video) });
        const analysis = await analyseVideo(engine, media, person.holder, { code: '4729', threshold: THRESHOLD, speech: noSpeechRecognizer });
        latencies.push(Date.now() - started);
        const used = process.cpuUsage(cpuStart);
        cpu.push((used.user + used.system) / 1000);
        const { outcome, decision } = analysis;
        verdicts[kind].push(`${person.faceId}: ${outcome.kind}${'detail' in outcome ? ` (${outcome.detail})` : ''}`);
        if (kind === 'live') {
          if (decision.faceScore !== null) same.push(decision.faceScore);
          // The same video against every other holder: different people.
          const frames = media.frames.filter((_, i) => i % 9 === 4);
          const embeddings: number[][] = [];
          for (const frame of frames) {
            const face = (await engine.analyse(frame.image, 'describe')).faces[0];
            if (face?.embedding) embeddings.push(face.embedding);
          }
          for (const other of people) {
            if (other.faceId === person.faceId) continue;
            const scores = embeddings.map((e) => cosine(e, other.holder)).sort((a, b) => a - b);
            if (scores.length > 0) different.push(scores[Math.floor(scores.length / 2)]!);
          }
        }
      }
    }
    const loadAfter = os.loadavg()[0]!;
    const rejected = (kind: FaceVideoKind) => verdicts[kind].filter((v) => !v.includes(': match')).length;
    lines.push(
      `${people.length} identities (ID front rendered by @kyc/fixtures, read by the OCR engine, holder photo cropped from it; videos by writeFaceVideo, 9 s 640x480 VP8+Opus, espeak-ng digits). Load average ${f2(loadBefore)} → ${f2(loadAfter)} on 2 cores: other helpers were using the CPU, so latencies are upper bounds.`,
      '',
      '| figure | value |',
      '|---|---|',
      `| decision latency p50 / p95 (decode + track 36 frames at 400 px + 5 embeddings at 640 px + liveness), ${latencies.length} videos | ${quantile(latencies, 0.5)} ms / ${quantile(latencies, 0.95)} ms |`,
      `| CPU time of this process per decision p50 / p95 (main thread + face workers; ffmpeg's decoding not included) | ${Math.round(quantile(cpu, 0.5))} ms / ${Math.round(quantile(cpu, 0.95))} ms |`,
      `| face workers | ${defaultFaceWorkers()} |`,
      `| same person (video vs the ID photo), cosine min / median / max | ${f2(Math.min(...same))} / ${f2(quantile(same, 0.5))} / ${f2(Math.max(...same))} |`,
      `| different people, cosine min / median / max (${different.length} pairs) | ${f2(Math.min(...different))} / ${f2(quantile(different, 0.5))} / ${f2(Math.max(...different))} |`,
      `| live videos of the holder accepted (UMBRAL_ROSTRO ${THRESHOLD}) | ${verdicts.live.length - rejected('live')} / ${verdicts.live.length} |`,
      `| still-photo videos (with the code read aloud) rejected | ${rejected('still')} / ${verdicts.still.length} |`,
      `| still-photo videos (silent) rejected | ${rejected('still-silent')} / ${verdicts['still-silent'].length} |`,
      `| looped clips rejected | ${rejected('loop')} / ${verdicts.loop.length} |`,
      '',
      ...KINDS.flatMap((kind) => verdicts[kind].map((v) => `- ${kind} ${v}`)),
    );
    return { title: 'Face video token: decision latency, face-score separation, replay rejection (generated inputs)', lines };
  } finally {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
}
