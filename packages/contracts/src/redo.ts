import { z } from 'zod';
import type { MultipartField } from './common.js';
import { consoleRedoSteps } from './console-routes.js';

/**
 * The customer's side of a redo (issue #16, review decision `redo`): the link the reviewer's decision sends opens
 * `/repetir` in the flow, which calls these routes with the link's credential in `X-Redo-Token` (no api key: the
 * credential names the grantor, the transaction and the one step). Not part of the public OpenAPI document.
 */
export const redoPaths = {
  /** GET: what the link allows (its step, the grantor), or a refusal (410 used or expired, 400 altered). */
  status: '/v1/redo',
  /** POST multipart: one side of the ID (step `id`), read like `/v2/ocr`. */
  id: '/v1/redo/id',
  /** POST multipart: the proof of address (step `proof`), stored and read like `/v1/file`. */
  proof: '/v1/redo/proof',
  /** POST: the step is done; the link is used up and the case goes back to review. */
  finish: '/v1/redo/finish',
} as const;

/** The flow's page the link opens (with `token` in its query). */
export const redoPagePath = '/repetir';

export const redoTokenHeader = 'x-redo-token';

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

/**
 * The Spanish texts of the redo (docs/flow.md has none: project texts in its tone, docs/decisions.md). The e-mail
 * and SMS name the grantor and the step; the flow's screens use the rest.
 */
export const redoTexts = {
  stepNames: { id: 'tu identificación (frente y reverso)', proof: 'tu comprobante de domicilio' },
  mailSubject: (grantor: string) => `${grantor}: necesitamos que repitas un paso de tu solicitud`,
  mailIntro: (grantor: string, step: string) => `Al revisar tu solicitud, ${grantor} necesita que vuelvas a enviar ${step}. Solo tendrás que repetir ese paso; lo demás ya quedó registrado.`,
  mailLinkLabel: 'Repetir el paso',
  mailValidity: (until: string) => `El enlace funciona una sola vez, hasta el ${until}.`,
  sms: (grantor: string, step: string, url: string) => `${grantor}: vuelve a enviar ${step} para continuar tu solicitud: ${url}`,
  title: 'Repite un paso de tu solicitud',
  intro: (step: string) => `Necesitamos que vuelvas a enviar ${step}. Lo demás de tu solicitud ya quedó registrado.`,
  finishedTitle: '¡Listo!',
  finishedBody: 'Recibimos tu información. Nuestro equipo revisará tu solicitud y te avisará el resultado.',
  used: 'Este enlace ya fue utilizado. Si necesitas ayuda, comunícate con nosotros indicando tu folio.',
  expired: 'La vigencia de este enlace terminó. Comunícate con nosotros para recibir uno nuevo.',
  invalid: 'Este enlace no es válido. Revisa que lo hayas copiado completo.',
  otherStep: 'Este enlace solo permite repetir el paso que te solicitamos.',
  incomplete: 'Todavía falta enviar el paso solicitado.',
} as const;
