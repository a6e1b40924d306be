import { z } from 'zod';
import type { MultipartField } from './common.js';
import { schemas } from './api.js';
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

/** `POST /v1/redo/face/code`: the one-time code and its digit schedule, as `/v1/otp` answers. */
export const redoFaceCode = z.object({ status: z.number(), payload: z.object({ codes: schemas.codes }) });

/** `POST /v1/redo/face/video`: a match (any other verdict is refused with the face step's texts). */
export const redoFaceVideo = z.object({ status: z.number(), payload: z.object({ match: z.literal(true), liveness: z.literal(true) }) });

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
  /** As `/v1/otp`: the face photo that obtains the code. */
  faceCode: {
    file: { kind: 'file', required: true, accept: ['image/jpeg', 'image/png'] },
  },
  /** As `/v2/videotoken`, without the fields the link already settles (user, service, passport). */
  faceVideo: {
    created: { kind: 'text', required: true },
    expire: { kind: 'text', required: true },
    originOS: { kind: 'text', required: false },
    info_camara: { kind: 'text', required: false },
    videotoken: { kind: 'file', required: true, accept: ['video/webm', 'video/mp4'] },
  },
} as const satisfies Record<string, Record<string, MultipartField>>;
