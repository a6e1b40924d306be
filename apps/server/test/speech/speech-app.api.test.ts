import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** The service with an operator's speech model whose files do not match the checksums it was given. */
describe('a server whose configured speech model fails its checksums', () => {
  let t: TestApp;
  let dir: string;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'asr-app-'));
    for (const name of ['tiny-encoder.int8.onnx', 'tiny-decoder.int8.onnx', 'tiny-tokens.txt']) await writeFile(path.join(dir, name), `${name} (replaced)`);
    await writeFile(path.join(dir, 'expected.sha256'), ['tiny-encoder.int8.onnx', 'tiny-decoder.int8.onnx', 'tiny-tokens.txt'].map((n) => `${'cd'.repeat(32)}  ${n}`).join('\n'));
    t = await startTestApp(
      { name: 'sqlite' },
      { LOG_LEVEL: 'info', ASR_MODEL_DIR: dir, ASR_MODEL_SHA256SUMS: path.join(dir, 'expected.sha256') },
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts, serves, and says in its log which file differs', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const refused = lines.map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string }).find((l) => l.msg.startsWith('the speech model was refused'));
    expect(refused).toMatchObject({ level: 50, msg: 'the speech model was refused: the spoken code will not be recognised' });
    expect(refused!.reason).toContain(`tiny-encoder.int8.onnx has SHA-256`);
    expect(refused!.reason).toContain(`expected ${'cd'.repeat(32)}`);
    expect(lines.some((line) => line.includes('speech model loaded'))).toBe(false);
  });
});
