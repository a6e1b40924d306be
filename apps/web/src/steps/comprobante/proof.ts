import type { ProofReadingWire } from '@kyc/contracts';
import { api } from '../../api/calls';
import { ApiError } from '../../api/client';
import { xhrUpload } from '../../media/xhr-upload';
import { readSession } from '../../session/session';

/** The proof is sent as the camera frame in JPEG (a photo of a page: PNG would be several times larger). */
export const proofImage = { type: 'image/jpeg', quality: 0.92, captureDelayMs: 1000 } as const;

/** Bucket named in the call (docs/flow.md §7 file); the server keeps blobs where its configuration says. */
export const proofBucket = 'comprobantes';

/** Spec §7 file: multipart bucket, folder (grantor id/user id/domicilio), uuid, file. */
export function proofForm(input: { idOtorgante: string; uuidUser: string; image: Blob }): FormData {
  const form = new FormData();
  form.append('bucket', proofBucket);
  form.append('folder', `${input.idOtorgante}/${input.uuidUser}/domicilio`);
  form.append('uuid', input.uuidUser);
  form.append('file', input.image, 'comprobante.jpg');
  return form;
}

export type ProofOutcome = { kind: 'read'; lectura: ProofReadingWire } | { kind: 'unreadable'; attemptsLeft: number } | { kind: 'exhausted' } | { kind: 'network' };

/** What the screen does with the server's answer: a legible proof goes on; an unreadable one asks again. */
export function decideProofAnswer(lectura: ProofReadingWire | undefined): ProofOutcome {
  if (!lectura) return { kind: 'unreadable', attemptsLeft: 1 };
  if (lectura.leido) return { kind: 'read', lectura };
  return lectura.intentosRestantes <= 0 ? { kind: 'exhausted' } : { kind: 'unreadable', attemptsLeft: lectura.intentosRestantes };
}

/** 429: the attempts ran out (final screen); no answer: network block; anything else: capture again. */
export function decideProofError(status: number | null): ProofOutcome {
  if (status === 429) return { kind: 'exhausted' };
  if (status === null || status === 0 || status === 502 || status === 503 || status === 504) return { kind: 'network' };
  return { kind: 'unreadable', attemptsLeft: 1 };
}

export async function sendProof(image: Blob, signal: AbortSignal): Promise<ProofOutcome> {
  const session = readSession();
  const form = proofForm({ idOtorgante: session.idOtorgante ?? '', uuidUser: session.uuidUser ?? '', image });
  try {
    const envelope = await api().postMultipart('file', form, { step: 'comprobante', signal, transport: xhrUpload });
    return decideProofAnswer(envelope?.payload?.lectura);
  } catch (error) {
    if (error instanceof ApiError) return decideProofError(error.status);
    throw error;
  }
}
