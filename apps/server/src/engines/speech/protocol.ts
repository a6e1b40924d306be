import type { WhisperModelFiles } from './model.js';

/** Messages between the server and the recogniser's child process (advanced serialization: typed arrays pass as is). */
export type ChildRequest = { type: 'init'; files: WhisperModelFiles; language: string; threads: number } | { type: 'transcribe'; id: number; samples: Float32Array; sampleRate: number };

export type ChildReply = { type: 'ready'; runtime: string } | { type: 'failed'; error: string } | { type: 'result'; id: number; text: string } | { type: 'error'; id: number; error: string };
