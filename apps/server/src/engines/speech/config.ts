import path from 'node:path';
import { z } from 'zod';

/**
 * The spoken-code recogniser's settings (ASR_* variables). No model ships with the service: an operator who installs
 * one names its folder and the SHA-256 of its files, which are checked before the model is ever loaded (model.ts).
 */
export type SpeechConfig =
  | { kind: 'none' }
  | {
      kind: 'whisper';
      /** ASR_MODEL_DIR: the folder with the encoder, decoder and tokens files. */
      modelDir: string;
      /** Expected SHA-256 by file name: ASR_MODEL_SHA256 inline, or the ASR_MODEL_SHA256SUMS manifest (read at start). */
      checksums: { kind: 'inline'; entries: ReadonlyMap<string, string> } | { kind: 'manifest'; file: string };
      /** ASR_THREADS: onnxruntime threads of the recogniser (default 1: the face engine uses the other core). */
      threads: number;
    };

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** A file name inside the model folder: no folders, no "..". */
export const modelFileName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

const inlineChecksums = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const entries = new Map<string, string>();
    for (const item of value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const match = /^([^=\s]+)=([0-9a-fA-F]{64})$/.exec(item);
      if (!match || !modelFileName.test(match[1]!)) {
        ctx.addIssue({ code: 'custom', message: `must be comma-separated FILE=SHA256 entries (64 hex digits, a file name of the model folder); bad entry: ${item.slice(0, 80)}` });
        return z.NEVER;
      }
      entries.set(match[1]!, match[2]!.toLowerCase());
    }
    if (entries.size === 0) {
      ctx.addIssue({ code: 'custom', message: 'must list FILE=SHA256 entries' });
      return z.NEVER;
    }
    return entries as ReadonlyMap<string, string>;
  });

const envSchema = z.object({
  ASR_MODEL_DIR: z.preprocess(blankToUndefined, z.string().trim().optional()),
  ASR_MODEL_SHA256: z.preprocess(blankToUndefined, inlineChecksums.optional()),
  ASR_MODEL_SHA256SUMS: z.preprocess(blankToUndefined, z.string().trim().optional()),
  ASR_THREADS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^[1-8]$/, { error: 'must be an integer 1-8' })
      .transform(Number)
      .optional(),
  ),
});

export type SpeechConfigResult = { ok: true; config: SpeechConfig } | { ok: false; problems: string[] };

export function parseSpeechEnv(env: NodeJS.ProcessEnv): SpeechConfigResult {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`) };
  const e = parsed.data;
  if (!e.ASR_MODEL_DIR) {
    const stray = (['ASR_MODEL_SHA256', 'ASR_MODEL_SHA256SUMS', 'ASR_THREADS'] as const).filter((name) => e[name] !== undefined);
    if (stray.length > 0) return { ok: false, problems: [`${stray.join(', ')} set without ASR_MODEL_DIR (the folder of the speech model)`] };
    return { ok: true, config: { kind: 'none' } };
  }
  if ((e.ASR_MODEL_SHA256 === undefined) === (e.ASR_MODEL_SHA256SUMS === undefined)) {
    return {
      ok: false,
      problems: ['ASR_MODEL_DIR needs the expected SHA-256 of the model files: set exactly one of ASR_MODEL_SHA256 (FILE=SHA256,...) or ASR_MODEL_SHA256SUMS (a sha256sum manifest)'],
    };
  }
  return {
    ok: true,
    config: {
      kind: 'whisper',
      modelDir: path.resolve(e.ASR_MODEL_DIR),
      checksums: e.ASR_MODEL_SHA256 ? { kind: 'inline', entries: e.ASR_MODEL_SHA256 } : { kind: 'manifest', file: path.resolve(e.ASR_MODEL_SHA256SUMS!) },
      threads: e.ASR_THREADS ?? 1,
    },
  };
}
