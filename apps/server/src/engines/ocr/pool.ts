/**
 * The tesseract.js workers, created once and reused: LSTM 'spa' workers for printed text and one legacy
 * 'eng' worker for the MRZ. tesseract.js runs every recognition inside a Node worker thread (one wasm
 * instance per worker), so a read never blocks the event loop; the main thread only posts the PNG and
 * receives the result. Language data comes from the npm packages `@tesseract.js-data/spa` and
 * `@tesseract.js-data/eng` and the wasm core from `tesseract.js-core`: in Node, tesseract.js reads a
 * local `langPath` with fs and `require`s the core, so nothing is fetched from the network.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Tesseract, { type Worker } from 'tesseract.js';
import type { Box } from './page.js';

const require = createRequire(import.meta.url);

export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/** sparse: text in no particular order, found wherever it is (forms and bills of boxed fields). */
export type Segmentation = 'auto' | 'sparse' | 'block' | 'line' | 'char';

export interface ReadParams {
  segmentation: Segmentation;
  /** Characters the recogniser may output; all when absent. */
  whitelist?: string;
  /**
   * Leptonica's tiled Otsu instead of tesseract's global one: a small crop of one short blurred word (a
   * lone '90' or 'H') is otherwise thresholded into nothing. Worse on multi-line blocks.
   */
  adaptiveThreshold?: boolean;
  /**
   * false: no second look at a line of low confidence with its image inverted (tesseract's `tessedit_do_invert`,
   * on by default). Cards print dark on light; that second look costs CPU on every doubtful line (photo, guilloche).
   */
  tryInverted?: boolean;
}

export interface RawSymbol {
  text: string;
  confidence: number;
  box: Box;
}

export interface RawWord {
  text: string;
  confidence: number;
  box: Box;
  symbols: RawSymbol[];
}

export interface RawLine {
  text: string;
  confidence: number;
  box: Box;
  words: RawWord[];
}

export interface RawRead {
  text: string;
  lines: RawLine[];
}

export interface OcrPoolOptions {
  /** LSTM workers for printed text (default 2: one per core of the target machine). */
  textWorkers?: number;
}

const PSM: Record<Segmentation, Tesseract.PSM> = {
  auto: Tesseract.PSM.AUTO,
  sparse: Tesseract.PSM.SPARSE_TEXT,
  block: Tesseract.PSM.SINGLE_BLOCK,
  line: Tesseract.PSM.SINGLE_LINE,
  char: Tesseract.PSM.SINGLE_CHAR,
};

/** Parameters every worker gets once. */
const COMMON_PARAMS: Partial<Tesseract.WorkerParams> = {
  // The legacy classifier adapts to what it has seen; a shared worker must read every image the same way.
  classify_enable_learning: '0',
  // The straightened card is ~300 dpi; stating it avoids the resolution guess (and its stderr notes).
  user_defined_dpi: '300',
  // tesseract's diagnostics go to its debug file: keep them off the server's stderr.
  debug_file: '/dev/null',
};

export function languageDataDir(language: 'spa' | 'eng', variant: '4.0.0' | '4.0.0_best_int'): string {
  let packageJson: string;
  try {
    packageJson = require.resolve(`@tesseract.js-data/${language}/package.json`);
  } catch {
    throw new Error(`OCR language data missing: install @tesseract.js-data/${language}`);
  }
  const dir = path.join(path.dirname(packageJson), variant);
  if (!existsSync(path.join(dir, `${language}.traineddata.gz`))) {
    throw new Error(`OCR language data missing: ${dir}/${language}.traineddata.gz`);
  }
  return dir;
}

interface Lease {
  worker: Worker;
  params: string;
}

/** A fixed set of workers handed out one job at a time. */
class WorkerQueue {
  private readonly idle: Lease[];
  private readonly waiting: Array<(lease: Lease) => void> = [];

  constructor(workers: Worker[]) {
    this.idle = workers.map((worker) => ({ worker, params: '' }));
  }

  async run<T>(job: (lease: Lease) => Promise<T>): Promise<T> {
    const lease = this.idle.pop() ?? (await new Promise<Lease>((resolve) => this.waiting.push(resolve)));
    try {
      return await job(lease);
    } finally {
      const next = this.waiting.shift();
      if (next) next(lease);
      else this.idle.push(lease);
    }
  }
}

const toSymbol = (s: Tesseract.Symbol): RawSymbol => ({ text: s.text, confidence: s.confidence, box: { ...s.bbox } });

function rawLines(page: Tesseract.Page): RawLine[] {
  const lines: RawLine[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words
          .map((w) => ({
            text: w.text,
            confidence: w.confidence,
            box: { ...w.bbox },
            symbols: (w.symbols ?? []).map(toSymbol),
          }))
          .filter((w) => w.text.trim() !== '');
        if (words.length === 0) continue;
        lines.push({
          text: words.map((w) => w.text).join(' '),
          confidence: line.confidence,
          box: { ...line.bbox },
          words,
        });
      }
    }
  }
  return lines;
}

async function setParams(lease: Lease, params: Partial<Tesseract.WorkerParams>): Promise<void> {
  const key = JSON.stringify(params);
  if (lease.params === key) return;
  await lease.worker.setParameters(params);
  lease.params = key;
}

export class OcrPool {
  private closed = false;

  private constructor(
    private readonly text: WorkerQueue,
    private readonly mrz: WorkerQueue,
    private readonly all: Worker[],
  ) {}

  /** Loads every worker now; rejects (after cleaning up) if language data or the core cannot load. */
  static async create(options: OcrPoolOptions = {}): Promise<OcrPool> {
    const spaDir = languageDataDir('spa', '4.0.0_best_int');
    const engDir = languageDataDir('eng', '4.0.0');
    const count = Math.max(1, options.textWorkers ?? 2);
    const workerOptions = { cacheMethod: 'none', gzip: true, logger: () => undefined } as const;
    const created = await Promise.allSettled([
      ...Array.from({ length: count }, () => Tesseract.createWorker('spa', Tesseract.OEM.LSTM_ONLY, { ...workerOptions, langPath: spaDir })),
      Tesseract.createWorker('eng', Tesseract.OEM.TESSERACT_ONLY, {
        ...workerOptions,
        langPath: engDir,
        legacyCore: true,
        legacyLang: true,
      }),
    ]);
    const workers = created.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failure = created.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) {
      await Promise.allSettled(workers.map((w) => w.terminate()));
      throw new Error(`OCR workers failed to start: ${String(failure.reason)}`);
    }
    await Promise.all(workers.map((w) => w.setParameters(COMMON_PARAMS)));
    const mrzWorker = workers[workers.length - 1]!;
    return new OcrPool(new WorkerQueue(workers.slice(0, -1)), new WorkerQueue([mrzWorker]), workers);
  }

  /** Printed text with the LSTM engine. */
  readText(png: Buffer, params: ReadParams): Promise<RawRead> {
    return this.read(this.text, png, {
      tessedit_pageseg_mode: PSM[params.segmentation],
      tessedit_char_whitelist: params.whitelist ?? '',
      thresholding_method: params.adaptiveThreshold ? '1' : '0',
      tessedit_do_invert: params.tryInverted === false ? '0' : '1',
    });
  }

  /**
   * A printed code (CURP, clave de elector) with the legacy engine, one word: it classifies characters one
   * by one, with no language model turning a run of digits into letters as the LSTM sometimes does.
   */
  readCode(png: Buffer, whitelist: string, adaptiveThreshold = false): Promise<RawRead> {
    return this.read(this.mrz, png, {
      tessedit_pageseg_mode: Tesseract.PSM.SINGLE_WORD,
      tessedit_char_whitelist: whitelist,
      thresholding_method: adaptiveThreshold ? '1' : '0',
    });
  }

  /** A machine-readable zone with the legacy engine restricted to the MRZ alphabet. */
  readMrz(png: Buffer): Promise<RawRead> {
    return this.read(this.mrz, png, {
      tessedit_pageseg_mode: Tesseract.PSM.SINGLE_BLOCK,
      tessedit_char_whitelist: MRZ_ALPHABET,
      thresholding_method: '0',
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled(this.all.map((w) => w.terminate()));
  }

  private read(queue: WorkerQueue, png: Buffer, params: Partial<Tesseract.WorkerParams>): Promise<RawRead> {
    if (this.closed) return Promise.reject(new Error('OCR engine is closed'));
    return queue.run(async (lease) => {
      await setParams(lease, params);
      const { data } = await lease.worker.recognize(png, {}, { text: true, blocks: true });
      return { text: data.text, lines: rawLines(data) };
    });
  }
}
