import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsrCheck } from '../../src/engines/speech/asr-check.js';

/** The operator's check (cli/asr-check.js) up to what can run here: no real model can be installed on this machine. */
let dir: string;
let wav: string;
const garbage = { 'tiny-encoder.int8.onnx': 'not a model', 'tiny-decoder.int8.onnx': 'nor this', 'tiny-tokens.txt': 'a 0\n' };
const sha = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'asr-check-'));
  for (const [name, content] of Object.entries(garbage)) await writeFile(path.join(dir, name), content);
  wav = path.join(dir, 'code.wav');
  execFileSync('espeak-ng', ['-v', 'es-419', 'cuatro, siete, dos, nueve', '-w', wav]);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function run(argv: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAsrCheck(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const verifiedEnv = async () => ({
  ASR_MODEL_DIR: dir,
  ASR_MODEL_SHA256: (await Promise.all(Object.keys(garbage).map(async (n) => `${n}=${sha(await readFile(path.join(dir, n)))}`))).join(','),
});

describe('asr-check', () => {
  it('prints its usage on bad arguments', async () => {
    expect(await run([], {})).toMatchObject({ code: 2, err: expect.stringContaining('usage: asr-check') });
    expect(await run([wav, '47'], {})).toMatchObject({ code: 2, err: expect.stringContaining('usage: asr-check') });
  });

  it('says when no model is configured', async () => {
    expect(await run([wav, '4729'], {})).toMatchObject({ code: 2, err: expect.stringContaining('ASR_MODEL_DIR is not set') });
  });

  it('refuses a model that fails its checksums, naming the file', async () => {
    const result = await run([wav, '4729'], {
      ASR_MODEL_DIR: dir,
      ASR_MODEL_SHA256: `tiny-encoder.int8.onnx=${'0'.repeat(64)},tiny-decoder.int8.onnx=${sha('nor this')},tiny-tokens.txt=${sha('a 0\n')}`,
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain(`model refused: the speech model in ${dir} failed its checksum check: tiny-encoder.int8.onnx has SHA-256 ${sha('not a model')}`);
  });

  it('decodes the audio, then reports a model the runtime cannot load', async () => {
    const result = await run([wav, '4729'], await verifiedEnv());
    expect(result.out).toContain('model: whisper tiny, checksums verified');
    expect(result.out).toMatch(/audio: \d+\.\d s/);
    expect(result.err).toMatch(/the speech model did not load: .*Protobuf parsing failed/);
    expect(result.code).toBe(2);
  }, 30_000);

  it('reports a file without sound', async () => {
    const text = path.join(dir, 'not-audio.txt');
    await writeFile(text, 'hola');
    const result = await run([text], await verifiedEnv());
    expect(result.code).toBe(2);
    expect(result.err).toContain('ffmpeg could not read the audio');
  });
});
