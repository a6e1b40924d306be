// The spoken-code recogniser (issue #4). Always measured: the start-up checksum check of a model-sized file and the
// runtime's start in its own process. With ASR_MODEL_DIR and its checksums set (an operator's Whisper model), also
// what matters: how often the code is heard in synthetic Spanish readings (espeak-ng, two wordings) and the time per
// recognition. No model can be installed on the machine this was built on, so there that part says it did not run.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { saysCode } from '../../apps/server/src/engines/speech/spoken-digits.js';
import { parseSpeechEnv } from '../../apps/server/src/engines/speech/config.js';
import { startWhisperEngine } from '../../apps/server/src/engines/speech/engine.js';
import { sha256File, verifyWhisperModel } from '../../apps/server/src/engines/speech/model.js';
import { toFloatSamples, WHISPER_RATE } from '../../apps/server/src/engines/speech/resample.js';
import type { SuiteResult } from '../run.js';

const words = ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'];
const CODES = ['4729', '0381', '5566', '9014', '2837', '7150', '6293', '1408'];

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** espeak-ng reading `text` as 16 kHz mono 16-bit samples. */
async function speak(dir: string, text: string): Promise<Int16Array> {
  const wav = path.join(dir, 'reading.wav');
  const raw = path.join(dir, 'reading.pcm');
  execFileSync('espeak-ng', ['-v', 'es-419', text, '-w', wav]);
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', wav, '-ac', '1', '-ar', String(WHISPER_RATE), '-f', 's16le', raw]);
  const pcm = await readFile(raw);
  return new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2));
}

export async function speechRecognition(): Promise<SuiteResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-speech-'));
  const lines: string[] = [];
  try {
    // Start-up cost of the checksum check: one 100 MB file (Whisper tiny int8 is ~103 MB in three files).
    const big = path.join(dir, 'model-sized.bin');
    await writeFile(big, Buffer.alloc(100 * 1024 * 1024, 7));
    const hashMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await sha256File(big);
      hashMs.push(performance.now() - t);
    }
    lines.push(`- SHA-256 of 100 MB at start: ${hashMs.map((v) => v.toFixed(0)).join(' / ')} ms (3 runs)`);

    // The runtime's process starting and refusing files that are not a model (what a corrupt download costs).
    for (const name of ['tiny-encoder.int8.onnx', 'tiny-decoder.int8.onnx', 'tiny-tokens.txt']) await writeFile(path.join(dir, name), 'not a model');
    const files = { encoder: path.join(dir, 'tiny-encoder.int8.onnx'), decoder: path.join(dir, 'tiny-decoder.int8.onnx'), tokens: path.join(dir, 'tiny-tokens.txt') };
    const t = performance.now();
    const refused = await startWhisperEngine({ files }).then(
      () => 'loaded (unexpected)',
      (error: Error) => error.message,
    );
    lines.push(`- recogniser process start + refusal of a corrupt model: ${(performance.now() - t).toFixed(0)} ms (${refused.slice(0, 140)})`);

    const parsed = parseSpeechEnv(process.env);
    if (!parsed.ok || parsed.config.kind === 'none') {
      lines.push('- recognition: not measured (no ASR_MODEL_DIR: no speech model on this machine)');
      return { title: 'Spoken code (speech recogniser)', lines };
    }
    const checked = await verifyWhisperModel(parsed.config);
    if (!checked.ok) {
      lines.push(`- recognition: not measured (model refused: ${checked.reason})`);
      return { title: 'Spoken code (speech recogniser)', lines };
    }
    const loadStart = performance.now();
    const engine = await startWhisperEngine({ files: checked.files, threads: parsed.config.threads });
    lines.push(`- ${checked.label} (${engine.runtime}, ${parsed.config.threads} thread(s)) loaded in ${(performance.now() - loadStart).toFixed(0)} ms`);
    const recogniseMs: number[] = [];
    const wordings = [
      { name: 'digit by digit', text: (code: string) => [...code].map((d) => words[Number(d)]).join(', ') },
      {
        name: 'digits with "y"',
        text: (code: string) =>
          `${[...code]
            .slice(0, 3)
            .map((d) => words[Number(d)])
            .join(', ')} y ${words[Number(code[3])]}`,
      },
    ];
    try {
      for (const wording of wordings) {
        let heard = 0;
        const misses: string[] = [];
        for (const code of CODES) {
          const samples = await speak(dir, wording.text(code));
          const start = performance.now();
          const transcript = await engine.transcribe(toFloatSamples(samples, WHISPER_RATE), WHISPER_RATE);
          recogniseMs.push(performance.now() - start);
          const result = saysCode(transcript, code);
          if (result.verified) heard += 1;
          else misses.push(`${code} → "${transcript.trim().slice(0, 60)}"`);
        }
        lines.push(`- ${wording.name}: code heard in ${heard}/${CODES.length} espeak-ng readings${misses.length ? `; missed: ${misses.join('; ')}` : ''}`);
      }
    } finally {
      await engine.close();
    }
    lines.push(`- recognition time per reading (~3 s of audio): p50 ${pct(recogniseMs, 50).toFixed(0)} ms, p95 ${pct(recogniseMs, 95).toFixed(0)} ms`);
    return { title: 'Spoken code (speech recogniser)', lines };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
