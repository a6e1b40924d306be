import type { ConsoleRedoChannel, ConsoleRedoStep } from '@kyc/contracts';
import type { Config } from '../../config.js';
import { publicBaseUrl } from '../../config.js';
import { loadLinkKey } from '../../crypto/link-key.js';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { evidenceKind } from '../../domain/evidence-kinds.js';
import { RefusedError } from '../../domain/refusal.js';
import { latestEvidence } from '../../store/evidence.js';
import type { Db } from '../../store/db.js';
import { findGrantorById } from '../../store/grantors.js';
import { redoUrl, signRedoCredential } from '../redo/links.js';
import { hasPendingRedo, newRedoId, recordRedo, redoContacts } from '../redo/requests.js';
import { reviewOf } from './reviews.js';

/** How long a redo link works: three days, time for the customer to find the document again (docs/decisions.md). */
export const redoLinkHours = 72;

export interface RedoLinks {
  linkKey: Buffer;
  baseUrl: string;
}

/** The result links' key and this service's address: the redo link is signed and built like the result link. */
export function redoLinksOf(config: Config): RedoLinks {
  return { linkKey: loadLinkKey(config).key, baseUrl: publicBaseUrl(config) };
}

export interface RedoAsk {
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
  userId: string;
  ip: string;
  step: ConsoleRedoStep;
  reason: string;
  note: string;
  channels: ConsoleRedoChannel[];
  flag: string;
}

/**
 * A reviewer's `redo`: refused (409) when the case was decided, a redo is already pending, or a channel has no
 * address on the case; otherwise the link is signed, recorded and its notices queued (features/redo/requests.ts).
 */
export async function askRedo(deps: { db: Db; cipher: DataCipher; links: RedoLinks }, ask: RedoAsk, now: Date = new Date()): Promise<void> {
  const { db, cipher, links } = deps;
  if (await reviewOf(db, cipher, ask.uuidTrx)) throw new RefusedError('redo_not_allowed', 'The case was already reviewed', 'Este expediente ya fue revisado.');
  if (await hasPendingRedo(db, ask.uuidTrx, now)) {
    throw new RefusedError('redo_not_allowed', 'A redo is already pending for this case', 'Ya se pidió repetir un paso de este expediente y la persona aún no lo envía.');
  }
  if (ask.step === 'face' && !(await latestEvidence(db, cipher, ask.uuidTrx, evidenceKind.holderPhoto))) {
    throw new RefusedError('redo_not_allowed', 'The case has no holder photo to compare a face video with', 'Este expediente no tiene la foto de una identificación con la cual comparar el rostro.');
  }
  const contacts = await redoContacts(db, cipher, ask.uuidTrx);
  const missing = ask.channels.filter((c) => contacts[c] === undefined);
  if (missing.length > 0) {
    throw new RefusedError('redo_not_allowed', `The case has no address for: ${missing.join(', ')}`, 'Este expediente no tiene un correo o un celular confirmado para ese medio.');
  }
  const grantor = await findGrantorById(db, ask.grantorId);
  const redoId = newRedoId(now);
  const expiresAt = new Date(now.getTime() + redoLinkHours * 3_600_000);
  const credential = await signRedoCredential(links.linkKey, { redoId, uuidTrx: ask.uuidTrx, uuidUser: ask.uuidUser, grantorId: ask.grantorId, step: ask.step, expiresAt });
  await recordRedo(
    db,
    cipher,
    { ...ask, redoId, grantorName: grantor?.name ?? '', contacts: ask.channels.map((channel) => ({ channel, to: contacts[channel]! })), expiresAt, url: redoUrl(links.baseUrl, credential) },
    now,
  );
}
