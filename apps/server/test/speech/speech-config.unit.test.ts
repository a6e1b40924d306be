import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { parseSpeechEnv } from '../../src/engines/speech/config.js';

const hex = (c: string) => c.repeat(64);

describe('speech recogniser configuration (ASR_*)', () => {
  it('is off by default, and blank values count as unset', () => {
    expect(parseSpeechEnv({})).toEqual({ ok: true, config: { kind: 'none' } });
    expect(parseSpeechEnv({ ASR_MODEL_DIR: '  ', ASR_MODEL_SHA256: '' })).toEqual({ ok: true, config: { kind: 'none' } });
    expect(loadConfig({}).speech).toEqual({ kind: 'none' });
  });

  it('takes a model folder with inline checksums (file names lower-cased hex)', () => {
    const result = parseSpeechEnv({
      ASR_MODEL_DIR: 'models/whisper-tiny',
      ASR_MODEL_SHA256: `tiny-encoder.int8.onnx=${hex('A')}, tiny-decoder.int8.onnx=${hex('b')},tiny-tokens.txt=${hex('0')}`,
      ASR_THREADS: '2',
    });
    expect(result.ok).toBe(true);
    if (!result.ok || result.config.kind !== 'whisper') throw new Error('expected a whisper config');
    expect(result.config.modelDir).toBe(path.resolve('models/whisper-tiny'));
    expect(result.config.threads).toBe(2);
    expect(result.config.checksums.kind).toBe('inline');
    if (result.config.checksums.kind !== 'inline') return;
    expect([...result.config.checksums.entries]).toEqual([
      ['tiny-encoder.int8.onnx', hex('a')],
      ['tiny-decoder.int8.onnx', hex('b')],
      ['tiny-tokens.txt', hex('0')],
    ]);
  });

  it('takes a model folder with a sha256sum manifest, one thread by default', () => {
    const result = parseSpeechEnv({ ASR_MODEL_DIR: '/opt/asr', ASR_MODEL_SHA256SUMS: '/opt/asr.sha256' });
    expect(result).toEqual({ ok: true, config: { kind: 'whisper', modelDir: '/opt/asr', checksums: { kind: 'manifest', file: '/opt/asr.sha256' }, threads: 1 } });
  });

  it('refuses a model folder without expected checksums, or with both kinds', () => {
    const none = parseSpeechEnv({ ASR_MODEL_DIR: '/opt/asr' });
    expect(none.ok).toBe(false);
    expect(!none.ok && none.problems[0]).toContain('exactly one of ASR_MODEL_SHA256');
    const both = parseSpeechEnv({ ASR_MODEL_DIR: '/opt/asr', ASR_MODEL_SHA256SUMS: '/x', ASR_MODEL_SHA256: `a.onnx=${hex('a')}` });
    expect(both.ok).toBe(false);
  });

  it('refuses malformed checksums, file names with folders, and bad thread counts', () => {
    const bad = (env: Record<string, string>) => {
      const result = parseSpeechEnv({ ASR_MODEL_DIR: '/opt/asr', ...env });
      expect(result.ok).toBe(false);
      return result.ok ? '' : result.problems.join('; ');
    };
    expect(bad({ ASR_MODEL_SHA256: 'tiny-encoder.onnx=abc' })).toContain('ASR_MODEL_SHA256 must be comma-separated FILE=SHA256');
    expect(bad({ ASR_MODEL_SHA256: `../etc/passwd=${hex('a')}` })).toContain('bad entry: ../etc/passwd');
    expect(bad({ ASR_MODEL_SHA256: hex('a') })).toContain('ASR_MODEL_SHA256');
    expect(bad({ ASR_MODEL_SHA256: `a.onnx=${hex('a')}`, ASR_THREADS: '0' })).toContain('ASR_THREADS must be an integer 1-8');
    expect(bad({ ASR_MODEL_SHA256: `a.onnx=${hex('a')}`, ASR_THREADS: 'many' })).toContain('ASR_THREADS');
  });

  it('refuses ASR settings without ASR_MODEL_DIR', () => {
    const result = parseSpeechEnv({ ASR_MODEL_SHA256SUMS: '/x', ASR_THREADS: '2' });
    expect(result).toEqual({ ok: false, problems: ['ASR_MODEL_SHA256SUMS, ASR_THREADS set without ASR_MODEL_DIR (the folder of the speech model)'] });
  });

  it('stops the server at start on a bad ASR setting, like every other setting', () => {
    expect(() => loadConfig({ ASR_MODEL_DIR: '/opt/asr' })).toThrow(ConfigError);
    expect(() => loadConfig({ ASR_MODEL_DIR: '/opt/asr' })).toThrow(/Invalid configuration: ASR_MODEL_DIR needs the expected SHA-256/);
  });
});
