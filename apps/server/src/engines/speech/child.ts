/**
 * Child-process entry of the speech recogniser: sherpa-onnx's offline Whisper recogniser, one transcription at a
 * time. A process, not a worker thread: the native module aborts the whole process on some errors (its synchronous
 * constructor does on a corrupt model file), and the server must survive that. Imports nothing of the server.
 */
import { createRequire } from 'node:module';
import type { ChildReply, ChildRequest } from './protocol.js';

interface SherpaStream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
}
interface SherpaRecognizer {
  createStream(): SherpaStream;
  decodeAsync(stream: SherpaStream): Promise<{ text: string }>;
}
interface SherpaModule {
  version: string;
  OfflineRecognizer: { createAsync(config: unknown): Promise<SherpaRecognizer> };
}

const send = (reply: ChildReply) => process.send?.(reply);

function loadSherpa(): SherpaModule {
  try {
    return createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(`sherpa-onnx-node could not be loaded (install the server's optional dependencies): ${message}`);
  }
}

let recognizer: SherpaRecognizer | undefined;
let queue = Promise.resolve();

process.on('message', (request: ChildRequest) => {
  if (request.type === 'init') {
    (async () => {
      const sherpa = loadSherpa();
      // createAsync reports a bad model as an error; the synchronous constructor aborts the process instead.
      recognizer = await sherpa.OfflineRecognizer.createAsync({
        featConfig: { sampleRate: 16_000, featureDim: 80 },
        modelConfig: {
          whisper: { encoder: request.files.encoder, decoder: request.files.decoder, language: request.language, task: 'transcribe', tailPaddings: -1 },
          tokens: request.files.tokens,
          numThreads: request.threads,
          provider: 'cpu',
          debug: 0,
        },
      });
      send({ type: 'ready', runtime: `sherpa-onnx ${sherpa.version}` });
    })().catch((error: unknown) => send({ type: 'failed', error: error instanceof Error ? error.message : String(error) }));
    return;
  }
  queue = queue.then(async () => {
    try {
      if (!recognizer) throw new Error('the recogniser is not loaded');
      const stream = recognizer.createStream();
      stream.acceptWaveform({ samples: request.samples, sampleRate: request.sampleRate });
      const result = await recognizer.decodeAsync(stream);
      send({ type: 'result', id: request.id, text: result.text ?? '' });
    } catch (error) {
      send({ type: 'error', id: request.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
});

// The server went away: nothing to answer.
process.on('disconnect', () => process.exit(0));
