// Face video decision on generated inputs: latency of a whole decision for a 9 s video (decode + track + match +
// liveness), face-score separation between the ID holder and other people, and how replays are judged.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { grantorParamDefaults } from '@kyc/contracts';
import { buildDocument, writeFaceVideo, type FaceVideoKind } from '@kyc/fixtures';
import { analyseVideo, holderEmbedding, matchScore } from '../../apps/server/src/features/face-video/analyse.js';
import { livenessThresholds } from '../../apps/server/src/features/face-video/liveness.js';
import { noSpeechRecognizer } from '../../apps/server/src/engines/speech/spoken-code.js';
import { createFaceEngine, defaultFaceWorkers } from '../../apps/server/src/engines/face/engine.js';
import { decodeMedia, ffmpegBinary } from '../../apps/server/src/engines/media/decode.js';
import { createOcrEngine } from '../../apps/server/src/engines/ocr/engine.js';
import type { SuiteResult } from '../run.js';
import { CARD_SEEDS, REFERENCE } from './card-faces.js';

/** Replays (still, silent still, loop) are judged on these (large, frontal source photos): they cost a decision each. */
const REPLAY_SEEDS = [22, 15, 20, 33, 58, 11];
const KINDS: FaceVideoKind[] = ['live', 'still', 'still-silent', 'loop'];
const THRESHOLD = Number(grantorParamDefaults.UMBRAL_ROSTRO);
/**
 * CPU time of this process's finished children (ffmpeg), from /proc/self/stat's cutime and cstime (fields 16 and 17,
 * in USER_HZ ticks of 10 ms on Linux); 0 where /proc is absent.
 */
function childCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // Fields are numbered from 1 with pid and comm first, so after the comm's ')' field 16 is at index 13.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/** Live videos also decided at the largest size the flow asks the camera for (docs/flow.md §9: up to 1280x720), at 30 fps. */
const LARGE_SEEDS = [22, 15, 20, 33];

/** The same video as a 16:9 camera at the flow's maximum would send it (top and bottom cropped, not stretched): 1280x720, 30 fps, VP8 at 2.5 Mb/s. */
async function reencodeLarge(source: string, target: string): Promise<void> {
  await promisify(execFile)(ffmpegBinary(), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    source,
    '-vf',
    'scale=1280:960,crop=1280:720,fps=30',
    '-c:v',
    'libvpx',
    '-b:v',
    '2500k',
    '-c:a',
    'copy',
    target,
  ]);
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const f2 = (v: number) => v.toFixed(2);
const f3 = (v: number) => v.toFixed(3);

export async function faceVideo(): Promise<SuiteResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-face-'));
  const engine = await createFaceEngine();
  const ocr = await createOcrEngine();
  const lines: string[] = [];
  try {
    const people: Array<{ seed: number; faceId: string; holder: number[] }> = [];
    for (const [faceId, seed] of Object.entries(CARD_SEEDS)) {
      const doc = await buildDocument('ine', 0, { seed: String(seed), referenceDate: REFERENCE });
      const front = doc.sides.find((s) => s.side === 'front')!;
      const read = await ocr.read({ image: front.png, side: 'front' });
      const holder = read.faceCrop ? await holderEmbedding(engine, read.faceCrop) : null;
      if (doc.face?.id !== faceId) throw new Error(`seed ${seed} no longer puts ${faceId} on the card (got ${doc.face?.id})`);
      if (!doc.face || !holder) {
        lines.push(`- seed ${seed}: no holder photo read from the card (skipped)`);
        continue;
      }
      people.push({ seed, faceId: doc.face.id, holder });
    }
    await ocr.close();

    const latencies: number[] = [];
    const cpu: number[] = [];
    const ffmpegCpu: number[] = [];
    const largeLatencies: number[] = [];
    const largeVerdicts: string[] = [];
    const verdicts: Record<FaceVideoKind, string[]> = { live: [], still: [], 'still-silent': [], loop: [] };
    const mouth: Record<FaceVideoKind, Array<{ range: number; peaks: number }>> = { live: [], still: [], 'still-silent': [], loop: [] };
    const same: Array<{ pair: string; score: number }> = [];
    const different: Array<{ pair: string; score: number }> = [];
    const loadBefore = os.loadavg()[0]!;
    for (const person of people) {
      for (const kind of KINDS) {
        if (kind !== 'live' && !REPLAY_SEEDS.includes(person.seed)) continue;
        const files = await writeFaceVideo({ faceId: person.faceId, kind, outDir: dir, seed: person.seed, code: '4729' });
        const started = Date.now();
        const cpuStart = process.cpuUsage();
        const childStart = childCpuMs();
        const media = await decodeMedia({ buffer: await readFile(files.video) });
        ffmpegCpu.push(childCpuMs() - childStart);
        const analysis = await analyseVideo(engine, media, person.holder, { code: '4729', threshold: THRESHOLD, speech: noSpeechRecognizer });
        latencies.push(Date.now() - started);
        const used = process.cpuUsage(cpuStart);
        cpu.push((used.user + used.system) / 1000);
        const { outcome, decision } = analysis;
        verdicts[kind].push(`${person.faceId}: ${outcome.kind}${'detail' in outcome ? ` (${outcome.detail})` : ''}`);
        const signals = decision.liveness.signals;
        mouth[kind].push({ range: Number(signals.mouthRange), peaks: Number(signals.mouthPeaks) });
        if (kind === 'live' && LARGE_SEEDS.includes(person.seed)) {
          const large = path.join(dir, `${person.faceId}-1280x720.webm`);
          await reencodeLarge(files.video, large);
          const largeStarted = Date.now();
          const largeMedia = await decodeMedia({ buffer: await readFile(large) });
          const largeAnalysis = await analyseVideo(engine, largeMedia, person.holder, { code: '4729', threshold: THRESHOLD, speech: noSpeechRecognizer });
          largeLatencies.push(Date.now() - largeStarted);
          largeVerdicts.push(`${person.faceId}: ${largeAnalysis.outcome.kind}`);
        }
        if (kind === 'live') {
          if (decision.faceScore !== null) same.push({ pair: person.faceId, score: decision.faceScore });
          // The same frames against every other holder, scored as the decision scores them: different people.
          for (const other of people) {
            if (other.faceId === person.faceId) continue;
            const score = matchScore(other.holder, analysis.embeddings);
            if (score !== null) different.push({ pair: `video ${person.faceId} vs ID ${other.faceId}`, score });
          }
        }
      }
    }
    const loadAfter = os.loadavg()[0]!;
    const sameScores = same.map((d) => d.score);
    const differentScores = different.map((d) => d.score);
    const hardest = [...different].sort((a, b) => b.score - a.score).slice(0, 5);
    const weakest = [...same].sort((a, b) => a.score - b.score).slice(0, 3);
    const spread = (kinds: FaceVideoKind[]) => {
      const ranges = kinds.flatMap((k) => mouth[k].map((m) => m.range));
      const peaks = kinds.flatMap((k) => mouth[k].map((m) => m.peaks));
      return `${f3(Math.min(...ranges))} / ${f3(quantile(ranges, 0.5))} / ${f3(Math.max(...ranges))}; peaks ${Math.min(...peaks)}-${Math.max(...peaks)}`;
    };
    const rejected = (kind: FaceVideoKind) => verdicts[kind].filter((v) => !v.includes(': match')).length;
    lines.push(
      `${people.length} identities, every face of @kyc/fixtures (ID front rendered by @kyc/fixtures, read by the OCR engine, holder photo cropped from it; videos by writeFaceVideo, 9 s 640x480 VP8+Opus, espeak-ng digits). Load average ${f2(loadBefore)} → ${f2(loadAfter)} on 2 cores (the bench's own face workers keep both busy; well above 2 means something else was running and the latencies are upper bounds).`,
      '',
      '| figure | value |',
      '|---|---|',
      `| decision latency p50 / p95 (decode + track 36 frames at 400 px + 4 embeddings at 640 px + liveness), ${latencies.length} videos | ${quantile(latencies, 0.5)} ms / ${quantile(latencies, 0.95)} ms |`,
      `| CPU time of this process per decision p50 / p95 (main thread + face workers; ffmpeg's decoding not included) | ${Math.round(quantile(cpu, 0.5))} ms / ${Math.round(quantile(cpu, 0.95))} ms |`,
      `| CPU time of ffmpeg's decoding per decision p50 / p95 (its two runs, probe and decode, from /proc/self/stat's reaped-children time, 10 ms ticks) | ${Math.round(quantile(ffmpegCpu, 0.5))} ms / ${Math.round(quantile(ffmpegCpu, 0.95))} ms |`,
      `| CPU time per decision in all, p50 / p95 (the two above added decision by decision) | ${Math.round(
        quantile(
          cpu.map((c, i) => c + (ffmpegCpu[i] ?? 0)),
          0.5,
        ),
      )} ms / ${Math.round(
        quantile(
          cpu.map((c, i) => c + (ffmpegCpu[i] ?? 0)),
          0.95,
        ),
      )} ms |`,
      `| decision latency at the camera's maximum (the same live videos cropped to 16:9 and re-encoded 1280x720 30 fps VP8 2.5 Mb/s; decoded to 640x360), ${largeLatencies.length} videos, min / max | ${Math.min(...largeLatencies)} ms / ${Math.max(...largeLatencies)} ms (${largeVerdicts.join('; ')}) |`,
      `| face workers | ${defaultFaceWorkers()} |`,
      `| same person (live video vs the ID photo), face score min / median / max (${same.length}) | ${f2(Math.min(...sameScores))} / ${f2(quantile(sameScores, 0.5))} / ${f2(Math.max(...sameScores))} |`,
      `| different people (the same videos vs every other ID), face score min / median / max (${different.length} pairs) | ${f2(Math.min(...differentScores))} / ${f2(quantile(differentScores, 0.5))} / ${f2(Math.max(...differentScores))} |`,
      `| separation: lowest same-person score − highest different-person score | ${f2(Math.min(...sameScores) - Math.max(...differentScores))} |`,
      `| false accepts / false rejects of the face score at UMBRAL_ROSTRO ${THRESHOLD} | ${differentScores.filter((v) => v >= THRESHOLD).length} / ${sameScores.filter((v) => v < THRESHOLD).length} |`,
      `| hardest different people (highest scores) | ${hardest.map((d) => `${d.pair} ${f2(d.score)}`).join('; ')} |`,
      `| lowest same-person scores | ${weakest.map((d) => `${d.pair} ${f2(d.score)}`).join('; ')} |`,
      `| live videos of the holder accepted (UMBRAL_ROSTRO ${THRESHOLD}) | ${verdicts.live.length - rejected('live')} / ${verdicts.live.length} |`,
      `| still-photo videos (with the code read aloud) rejected | ${rejected('still')} / ${verdicts.still.length} |`,
      `| still-photo videos (silent) rejected | ${rejected('still-silent')} / ${verdicts['still-silent'].length} |`,
      `| looped clips rejected | ${rejected('loop')} / ${verdicts.loop.length} |`,
      `| mouth opening spread while the digits are shown (liveness mouthRange, needs ${livenessThresholds.mouthRange}) min / median / max, and peaks above rest (needs ${livenessThresholds.mouthPeaks}): live videos | ${spread(['live'])} |`,
      `| the same: still photos (with and without speech) / looped clips (rejected by their frames) | ${spread(['still', 'still-silent'])} / ${spread(['loop'])} |`,
      '',
      ...KINDS.flatMap((kind) => verdicts[kind].map((v) => `- ${kind} ${v}`)),
    );
    return { title: 'Face video token: decision latency, face-score separation, replay rejection (generated inputs)', lines };
  } finally {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
}
