import { z } from 'zod';
import type { MultipartField } from './common.js';
import { consoleRedoSteps } from './console-routes.js';

export * from './redo-routes.js';

export const redoStep = z.enum(consoleRedoSteps);

export const redoStatus = z.object({
  step: redoStep,
  idOtorgante: z.string(),
  uuid: z.string(),
  uuidTrx: z.string(),
  /** ISO 8601: the link works until then (once). */
  expiresAt: z.string(),
});
export type RedoStatus = z.infer<typeof redoStatus>;

export const redoFinished = z.object({ step: redoStep, completedAt: z.string() });
export type RedoFinished = z.infer<typeof redoFinished>;

/** `POST /v1/redo/id`: what was read of the side (the flow shows nothing of it: the reviewer sees it in the case file). */
export const redoIdRead = z.object({
  status: z.number(),
  payload: z.object({ ocrData: z.record(z.string(), z.union([z.string(), z.boolean()])), ocrBack: z.record(z.string(), z.string()).optional() }),
});

/** `POST /v1/redo/proof`: stored; whether it could be read and the attempts left for this redo. */
export const redoProofStored = z.object({
  status: z.number(),
  payload: z.object({ read: z.boolean(), outcome: z.string(), attemptsLeft: z.number() }),
});

export const redoMultipart = {
  id: {
    side: { kind: 'text', required: true },
    passport: { kind: 'text', required: false },
    originOS: { kind: 'text', required: false },
    file: { kind: 'file', required: true, accept: ['image/jpeg', 'image/png', 'image/webp'] },
  },
  proof: {
    file: { kind: 'file', required: true, accept: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] },
  },
} as const satisfies Record<string, Record<string, MultipartField>>;
