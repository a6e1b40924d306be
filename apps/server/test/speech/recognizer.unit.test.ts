import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpeechConfig } from '../../src/engines/speech/config.js';
import { SpeechEngineError, startWhisperEngine } from '../../src/engines/speech/engine.js';
import { createSpeechRecognizer } from '../../src/engines/speech/recognizer.js';

/**
 * The real runtime (sherpa-onnx-node, the optional dependency) against model files that are not a model: no
 * Spanish model can be installed on this machine, so what is tested is that every way of failing becomes a clear
 * "unavailable" reason in the evidence and that the server process survives, never a recognition result.
 */
const garbage = { 'tiny-encoder.int8.onnx': 'not an onnx model', 'tiny-decoder.int8.onnx': 'nor this', 'tiny-tokens.txt': 'a 0\nb 1\n' };
const sha = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');
let dir: string;
let files: { encoder: string; decoder: string; tokens: string };
const speech = { samples: new Int16Array(16_000), sampleRate: 16_000 };

function collectingLog() {
  const lines: { level: 'info' | 'error'; object: object; message: string }[] = [];
  return {
    lines,
    info: (object: object, message: string) => lines.push({ level: 'info', object, message }),
    error: (object: object, message: string) => lines.push({ level: 'error', object, message }),
  };
}

function config(entries: Record<string, string>): Extract<SpeechConfig, { kind: 'whisper' }> {
  return { kind: 'whisper', modelDir: dir, checksums: { kind: 'inline', entries: new Map(Object.entries(entries)) }, threads: 1 };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'asr-garbage-'));
  for (const [name, content] of Object.entries(garbage)) await writeFile(path.join(dir, name), content);
  files = { encoder: path.join(dir, 'tiny-encoder.int8.onnx'), decoder: path.join(dir, 'tiny-decoder.int8.onnx'), tokens: path.join(dir, 'tiny-tokens.txt') };
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('sherpa-onnx-node in this environment', () => {
  it('loads, with the offline recogniser and its non-blocking factory', () => {
    const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as { version: string; OfflineRecognizer: { createAsync: unknown } };
    expect(sherpa.version).toMatch(/^1\.13\./);
    expect(typeof sherpa.OfflineRecognizer).toBe('function');
    expect(typeof sherpa.OfflineRecognizer.createAsync).toBe('function');
  });
});

describe('the Whisper engine process', () => {
  it("refuses model files that are not ONNX models with the runtime's reason", async () => {
    const started = startWhisperEngine({ files });
    await expect(started).rejects.toBeInstanceOf(SpeechEngineError);
    await expect(started).rejects.toThrow(/the speech model did not load: .*Protobuf parsing failed/);
  }, 30_000);

  it("refuses missing files with the runtime's reason", async () => {
    await expect(startWhisperEngine({ files: { ...files, tokens: path.join(dir, 'absent.txt') } })).rejects.toThrow(/absent\.txt' does not exist/);
  }, 30_000);

  it('survives the runtime ending its own process on a malformed tokens file (sherpa-onnx exits there)', async () => {
    const tokens = path.join(dir, 'malformed-tokens.txt');
    await writeFile(tokens, 'no token ids here');
    const started = startWhisperEngine({ files: { ...files, tokens } });
    await expect(started).rejects.toThrow(/the speech recogniser process stopped while loading the model \(exit 255\): Error: no token ids here/);
  }, 30_000);

  it('survives the recogniser process dying (a native abort) while it loads', async () => {
    const started = startWhisperEngine({ files, onProcess: (pid) => process.kill(pid, 'SIGABRT') });
    await expect(started).rejects.toThrow(/the speech recogniser process stopped while loading the model \(signal SIGABRT\)/);
    // This process is still here and can start another one.
    await expect(startWhisperEngine({ files })).rejects.toThrow(/did not load/);
  }, 30_000);
});

describe('createSpeechRecognizer: what the evidence says', () => {
  it('without ASR configured: not recognised, only timing (as before)', async () => {
    const log = collectingLog();
    const setup = await createSpeechRecognizer({ kind: 'none' }, log);
    const check = await setup.recognizer.check(speech, '4729');
    expect(check).toMatchObject({ verified: null, engine: 'none' });
    expect(check.detail).toContain('only the timing of voice and lips was checked');
    expect(log.lines).toEqual([]);
  });

  it('with a model refused by its checksums: logged once, the reason in every check, nothing started', async () => {
    const log = collectingLog();
    const wrong = sha('something else');
    const setup = await createSpeechRecognizer(config({ ...Object.fromEntries(Object.entries(garbage).map(([n, c]) => [n, sha(c)])), 'tiny-encoder.int8.onnx': wrong }), log);
    expect(log.lines).toEqual([
      {
        level: 'error',
        message: 'the speech model was refused: the spoken code will not be recognised',
        object: { modelDir: dir, reason: expect.stringContaining(`tiny-encoder.int8.onnx has SHA-256 ${sha(garbage['tiny-encoder.int8.onnx'])}, expected ${wrong}`) },
      },
    ]);
    const check = await setup.recognizer.check(speech, '4729');
    expect(check.verified).toBeNull();
    expect(check.engine).toBe('sherpa-onnx whisper');
    expect(check.detail).toMatch(/^the speech model was refused: the speech model in .* failed its checksum check: tiny-encoder\.int8\.onnx has SHA-256 /);
    expect(check.detail).toContain('only the timing of voice and lips was checked');
    expect(check.heard).toBeUndefined();
    await setup.close();
  });

  it('with verified files the runtime cannot load: the log and the check say unavailable, and it is retried', async () => {
    const log = collectingLog();
    const entries = Object.fromEntries(await Promise.all(Object.keys(garbage).map(async (n) => [n, sha(await readFile(path.join(dir, n)))] as const)));
    const setup = await createSpeechRecognizer(config(entries), log);
    expect(log.lines[0]).toMatchObject({ level: 'info', message: 'speech model checksums verified' });
    expect(setup.recognizer.name).toBe('sherpa-onnx whisper tiny');
    const first = await setup.recognizer.check(speech, '4729');
    expect(first).toEqual({
      verified: null,
      engine: 'sherpa-onnx whisper tiny',
      detail: expect.stringMatching(
        /^the speech recogniser is unavailable: the speech model did not load: .*Protobuf parsing failed.*; the spoken code was not recognised, only the timing of voice and lips was checked$/,
      ),
    });
    // The background load at start failed and was logged.
    await expect.poll(() => log.lines.some((l) => l.level === 'error' && l.message.startsWith('the speech model could not be loaded'))).toBe(true);
    // A later check tries again (the operator may have fixed the model) and still reports the reason.
    expect((await setup.recognizer.check(speech, '4729')).verified).toBeNull();
    await setup.close();
  }, 30_000);
});
