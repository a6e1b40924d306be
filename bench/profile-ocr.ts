// Profile of single OCR reads: every tesseract recognition (kind, image size, CPU-free wall ms) and the
// process CPU time per side. Usage: tsx --conditions=source bench/profile-ocr.ts [model] [variant] [n]
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateFixtureSet, type GroundTruth, type IneModelName } from '@kyc/fixtures';
import sharp from 'sharp';

// PROFILE_ENGINE: another copy of the engine's directory (a 'before' kept beside it while measuring).
const engineDir = `../apps/server/src/engines/${process.env.PROFILE_ENGINE ?? 'ocr'}`;
const { createOcrEngine } = (await import(`${engineDir}/engine.js`)) as typeof import('../apps/server/src/engines/ocr/engine.js');
const { OcrPool } = (await import(`${engineDir}/pool.js`)) as typeof import('../apps/server/src/engines/ocr/pool.js');
const [model = 'g-h', variant = 'clean', n = '2'] = process.argv.slice(2);
const root = path.join(os.tmpdir(), 'ocrprof', model);
if (!existsSync(path.join(root, 'manifest.json'))) {
  await generateFixtureSet({
    outDir: root,
    seed: 11,
    count: 4,
    kinds: ['ine'],
    degradations: ['phone', 'overflow', 'quarter-turn', 'busy'],
    referenceDate: '2026-11-26',
    ineModel: model as IneModelName,
  });
}
const manifest = JSON.parse(await readFile(path.join(root, 'manifest.json'), 'utf8')) as { items: Array<{ side: string; degradation: string; png: string; json: string }> };
const calls: string[] = [];
let serial: Promise<void> = Promise.resolve();
for (const name of ['readText', 'readCode', 'readMrz'] as const) {
  const original = OcrPool.prototype[name] as (...args: unknown[]) => Promise<unknown>;
  (OcrPool.prototype as unknown as Record<string, unknown>)[name] = async function (this: OcrPool, png: Buffer, ...rest: unknown[]) {
    const meta = await sharp(png).metadata();
    // PROFILE_SERIAL: one recognition at a time, so the process CPU time of each is its own.
    const previous = serial;
    let release = () => {};
    if (process.env.PROFILE_SERIAL) serial = new Promise<void>((r) => (release = r));
    await previous;
    const t = performance.now();
    const c = process.cpuUsage();
    const r = await original.call(this, png, ...rest);
    const u = process.cpuUsage(c);
    calls.push(`${name} ${meta.width}x${meta.height} ${JSON.stringify(rest[0])} ${Math.round(performance.now() - t)}ms wall ${Math.round((u.user + u.system) / 1000)}ms CPU`);
    release();
    return r;
  };
}
const engine = await createOcrEngine({ now: () => new Date('2026-11-26T12:00:00Z') });
const items = manifest.items.filter((i) => i.side === 'front' && i.degradation === variant).slice(0, Number(n));
for (const item of items) {
  const truth = JSON.parse(await readFile(path.join(root, item.json), 'utf8')) as GroundTruth;
  calls.length = 0;
  const cpu = process.cpuUsage();
  const t = performance.now();
  const result = await engine.read({ image: await readFile(path.join(root, item.png)), side: 'front' });
  const used = process.cpuUsage(cpu);
  const wrong = Object.entries(truth.ocrFront)
    .filter(([k, v]) => typeof v === 'string' && (result.ocrData[k] ?? '') !== v)
    .map(([k]) => k);
  console.log(
    `${item.png}: wall ${Math.round(performance.now() - t)} ms, CPU ${Math.round((used.user + used.system) / 1000)} ms, ${calls.length} recognitions, timings ${JSON.stringify(result.timingsMs)} wrong ${wrong.join(',')}`,
  );
  if (process.env.PROFILE_CALLS) for (const c of calls) console.log('   ', c);
}
await engine.close();
