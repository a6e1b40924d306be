import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpeechConfig } from '../../src/engines/speech/config.js';
import { parseSha256Sums, verifyWhisperModel } from '../../src/engines/speech/model.js';

type WhisperConfig = Extract<SpeechConfig, { kind: 'whisper' }>;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const files = {
  'tiny-encoder.int8.onnx': 'encoder bytes',
  'tiny-decoder.int8.onnx': 'decoder bytes',
  'tiny-tokens.txt': 'tokens bytes',
};
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'asr-model-'));
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(dir, name), content);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const inline = (entries: Record<string, string>): WhisperConfig => ({ kind: 'whisper', modelDir: dir, checksums: { kind: 'inline', entries: new Map(Object.entries(entries)) }, threads: 1 });
const right = () => Object.fromEntries(Object.entries(files).map(([name, content]) => [name, sha(content)]));

describe('speech model checksum verification', () => {
  it('accepts a model whose every file has the expected SHA-256, and names its files', async () => {
    const checked = await verifyWhisperModel(inline(right()));
    expect(checked).toEqual({
      ok: true,
      label: 'whisper tiny',
      checked: Object.keys(files),
      files: { encoder: path.join(dir, 'tiny-encoder.int8.onnx'), decoder: path.join(dir, 'tiny-decoder.int8.onnx'), tokens: path.join(dir, 'tiny-tokens.txt') },
    });
  });

  it('refuses a model with a changed file, naming the file and both digests', async () => {
    const expected = { ...right(), 'tiny-decoder.int8.onnx': sha('another decoder') };
    const checked = await verifyWhisperModel(inline(expected));
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.reason).toContain('failed its checksum check');
    expect(checked.reason).toContain(`tiny-decoder.int8.onnx has SHA-256 ${sha('decoder bytes')}, expected ${sha('another decoder')}`);
    expect(checked.reason).not.toContain('tiny-encoder');
  });

  it('refuses a model with a listed file missing', async () => {
    const checked = await verifyWhisperModel(inline({ ...right(), 'tiny-extra.txt': sha('x') }));
    expect(checked).toEqual({ ok: false, reason: expect.stringContaining(`tiny-extra.txt is missing from ${dir}`) });
  });

  it('refuses checksums that do not name one encoder, one decoder and one tokens file', async () => {
    const { 'tiny-tokens.txt': _tokens, ...noTokens } = right();
    const missing = await verifyWhisperModel(inline(noTokens));
    expect(missing).toEqual({ ok: false, reason: expect.stringContaining('no tokens file is listed') });
    const twoEncoders = await verifyWhisperModel(inline({ ...right(), 'tiny-encoder.onnx': sha('x') }));
    expect(twoEncoders).toEqual({ ok: false, reason: expect.stringContaining('2 encoder files are listed (tiny-encoder.int8.onnx, tiny-encoder.onnx): list only the one to use') });
  });

  it('reads a sha256sum manifest, and refuses an unreadable or malformed one', async () => {
    const manifest = path.join(dir, 'SHA256SUMS');
    await writeFile(
      manifest,
      `# whisper tiny\n${Object.entries(right())
        .map(([name, digest]) => `${digest}  ${name}`)
        .join('\n')}\n`,
    );
    const fromFile: WhisperConfig = { kind: 'whisper', modelDir: dir, checksums: { kind: 'manifest', file: manifest }, threads: 1 };
    expect(await verifyWhisperModel(fromFile)).toMatchObject({ ok: true, label: 'whisper tiny' });

    const absent = await verifyWhisperModel({ ...fromFile, checksums: { kind: 'manifest', file: path.join(dir, 'nope') } });
    expect(absent).toEqual({ ok: false, reason: expect.stringContaining('could not be read: ENOENT') });

    await writeFile(manifest, 'not a checksum line\n');
    expect(await verifyWhisperModel(fromFile)).toEqual({ ok: false, reason: expect.stringContaining('line 1 is not "SHA256  file-name"') });
  });

  it('parses sha256sum text and binary-mode lines', () => {
    const a = 'a'.repeat(64);
    expect(parseSha256Sums(`${a}  x.onnx\n${a.toUpperCase()} *y.txt\n\n${a}  ./z.onnx`)).toEqual({
      entries: new Map([
        ['x.onnx', a],
        ['y.txt', a],
        ['z.onnx', a],
      ]),
    });
    expect(parseSha256Sums('')).toEqual({ problem: 'it lists no file' });
    expect(parseSha256Sums(`${a}  ../x.onnx`)).toEqual({ problem: expect.stringContaining('line 1') });
  });
});
