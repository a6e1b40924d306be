// Hologram calibration (id_calibrate): decode + specular-highlight measure on generated holographic and flat
// card videos, with the default threshold's decisions.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { grantorParamDefaults } from '@kyc/contracts';
import { writeHologramVideo } from '@kyc/fixtures';
import { sampleFrames } from '../../apps/server/src/engines/hologram/decode.js';
import { measureHighlights } from '../../apps/server/src/engines/hologram/measure.js';
import type { SuiteResult } from '../run.js';

const COUNT = 5;
const SECONDS = 6;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

export async function hologramCalibration(): Promise<SuiteResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-hologram-'));
  const threshold = Number(grantorParamDefaults.UMBRAL_HOLOGRAMA);
  const rows: string[] = [];
  const decodeMs: number[] = [];
  const measureMs: number[] = [];
  const kinds = [
    { name: 'holographic (moving glare band)', options: { highlight: true } },
    { name: 'holographic, faint band (strength 0.5)', options: { highlight: true, glare: 0.5 } },
    { name: 'flat (no highlight)', options: { highlight: false } },
    { name: 'flat + fixed lamp reflection', options: { highlight: false, lampReflection: true } },
  ];
  try {
    for (const kind of kinds) {
      const changes: number[] = [];
      let passed = 0;
      for (let i = 0; i < COUNT; i++) {
        const file = path.join(dir, `video-${i}.webm`);
        await writeHologramVideo(file, { ...kind.options, index: i, seed: 'bench-hologram', seconds: SECONDS });
        const video = await readFile(file);
        let t = performance.now();
        const frames = await sampleFrames(video);
        decodeMs.push(performance.now() - t);
        t = performance.now();
        const measure = measureHighlights(frames, threshold);
        measureMs.push(performance.now() - t);
        changes.push(measure.highlightChange);
        if (measure.outcome === 'passed') passed++;
      }
      rows.push(`| ${kind.name} | ${COUNT} | ${Math.min(...changes).toFixed(3)} | ${pct(changes, 50).toFixed(3)} | ${Math.max(...changes).toFixed(3)} | ${passed}/${COUNT} |`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return {
    title: `Hologram calibration — ${COUNT} generated ${SECONDS} s WebM videos per kind (640x360, 10 fps), sampled at 8 fps, 320 px; threshold ${threshold}`,
    lines: [
      '| video | n | highlightChange min | median | max | passed |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `Decode (ffmpeg child process) p50 ${pct(decodeMs, 50).toFixed(0)} ms, max ${Math.max(...decodeMs).toFixed(0)} ms; measure p50 ${pct(measureMs, 50).toFixed(0)} ms, max ${Math.max(...measureMs).toFixed(0)} ms.`,
    ],
  };
}
