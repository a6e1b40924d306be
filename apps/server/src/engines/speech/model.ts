/**
 * The operator's speech model, checked before it is loaded: every file named in the expected checksums must be in
 * the model folder with exactly that SHA-256, and they must name one Whisper encoder, one decoder and one tokens
 * file (sherpa-onnx's export: `tiny-encoder.int8.onnx`, `tiny-decoder.int8.onnx`, `tiny-tokens.txt`). Anything
 * else refuses the model with the reason, which the service logs and writes in every decision's evidence.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { modelFileName, type SpeechConfig } from './config.js';

export interface WhisperModelFiles {
  encoder: string;
  decoder: string;
  tokens: string;
}

export type ModelCheck = { ok: true; files: WhisperModelFiles /** e.g. 'whisper tiny' */; label: string; checked: string[] } | { ok: false; reason: string };

/** A `sha256sum` manifest ("HEX  name" or "HEX *name" lines; blank lines and # comments skipped). */
export function parseSha256Sums(text: string): { entries: Map<string, string> } | { problem: string } {
  const entries = new Map<string, string>();
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([0-9a-fA-F]{64}) [ *](?:\.\/)?(\S+)$/.exec(line);
    if (!match || !modelFileName.test(match[2]!)) return { problem: `line ${index + 1} is not "SHA256  file-name" (a file of the model folder)` };
    entries.set(match[2]!, match[1]!.toLowerCase());
  }
  if (entries.size === 0) return { problem: 'it lists no file' };
  return { entries };
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** The one expected file of a role, or why there is not exactly one. */
function pick(names: readonly string[], role: string, pattern: RegExp): { name: string } | { problem: string } {
  const found = names.filter((name) => pattern.test(name));
  if (found.length === 1) return { name: found[0]! };
  if (found.length === 0) return { problem: `no ${role} file is listed (expected a name matching ${pattern.source})` };
  return { problem: `${found.length} ${role} files are listed (${found.join(', ')}): list only the one to use` };
}

async function expectedChecksums(config: Extract<SpeechConfig, { kind: 'whisper' }>): Promise<{ entries: ReadonlyMap<string, string> } | { problem: string }> {
  if (config.checksums.kind === 'inline') return { entries: config.checksums.entries };
  let text: string;
  try {
    text = await readFile(config.checksums.file, 'utf8');
  } catch (error) {
    return { problem: `the checksum manifest ASR_MODEL_SHA256SUMS (${config.checksums.file}) could not be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  const parsed = parseSha256Sums(text);
  return 'problem' in parsed ? { problem: `the checksum manifest ${config.checksums.file} is not usable: ${parsed.problem}` } : parsed;
}

/** Verifies every expected file's SHA-256 (reads them whole: ~100 MB for Whisper tiny int8, under a second). */
export async function verifyWhisperModel(config: Extract<SpeechConfig, { kind: 'whisper' }>): Promise<ModelCheck> {
  const expected = await expectedChecksums(config);
  if ('problem' in expected) return { ok: false, reason: expected.problem };
  const names = [...expected.entries.keys()];
  const roles = {
    encoder: pick(names, 'encoder', /encoder.*\.onnx$/),
    decoder: pick(names, 'decoder', /decoder.*\.onnx$/),
    tokens: pick(names, 'tokens', /tokens.*\.txt$/),
  };
  const roleProblems = Object.values(roles).flatMap((r) => ('problem' in r ? [r.problem] : []));
  if (roleProblems.length > 0) return { ok: false, reason: `the expected checksums do not name a Whisper model: ${roleProblems.join('; ')}` };

  const problems: string[] = [];
  for (const [name, sha256] of expected.entries) {
    const file = path.join(config.modelDir, name);
    let actual: string;
    try {
      actual = await sha256File(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push(code === 'ENOENT' ? `${name} is missing from ${config.modelDir}` : `${name} could not be read (${code ?? String(error)})`);
      continue;
    }
    if (actual !== sha256) problems.push(`${name} has SHA-256 ${actual}, expected ${sha256}`);
  }
  if (problems.length > 0) return { ok: false, reason: `the speech model in ${config.modelDir} failed its checksum check: ${problems.join('; ')}` };

  const file = (role: keyof typeof roles) => path.join(config.modelDir, (roles[role] as { name: string }).name);
  const encoderName = (roles.encoder as { name: string }).name;
  const size = /^(.*?)-encoder/.exec(encoderName)?.[1];
  return {
    ok: true,
    files: { encoder: file('encoder'), decoder: file('decoder'), tokens: file('tokens') },
    label: size ? `whisper ${size}` : 'whisper',
    checked: names,
  };
}
