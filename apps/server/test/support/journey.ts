import { createDataCipher, loadDataKey } from '../../src/crypto/data-cipher.js';
import { evidenceKind } from '../../src/domain/evidence-kinds.js';
import type { Config } from '../../src/config.js';
import type { Db } from '../../src/store/db.js';
import { addEvidence } from '../../src/store/evidence.js';
import { auditEvent, demoId } from './fixtures.js';

interface Injector {
  inject(options: { method: 'POST'; url: string; headers: Record<string, string>; payload: unknown }): PromiseLike<{ statusCode: number; body: string }>;
}

type Consent = 'terminos' | 'clausula' | 'autorizacion' | 'consulta_historial';

/** The consents of the main journey, in its order (docs/flow.md §4 "Main sequence"). */
export const journeyConsents: readonly Consent[] = ['terminos', 'clausula', 'autorizacion'];

/**
 * Records consents the way the flow does (an audit event 'Aceptación' whose dato carries version and SHA-256), so
 * the captures the server keeps in order (domain/journey-order.ts) may run.
 */
export async function acceptConsents(app: Injector, headers: { apikey: string; transaccion: string; cliente: string }, consents: readonly Consent[] = ['terminos']): Promise<void> {
  const dato = JSON.stringify({ version: '2024-01', sha256: 'a'.repeat(64), userAgent: 'vitest' });
  for (const paso of consents) {
    const res = await app.inject({ method: 'POST', url: '/v1/celd_events', headers, payload: auditEvent(headers, { paso, tipo: 'Aceptación', dato }) });
    if (res.statusCode !== 200) throw new Error(`consent ${paso} not recorded: ${res.statusCode} ${res.body}`);
  }
}

/**
 * A face-video decision stored as the face-video feature stores it, for tests of what comes after the video (the
 * result calls) that do not record a real video.
 */
export async function recordFaceDecision(
  t: { db: Db; config: Config },
  ids: { uuidTrx: string; grantorId: string },
  decision: Record<string, unknown> = {
    match: true,
    faceScore: 0.9,
    threshold: 0.5,
    liveness: { passed: true, spoof: false, signals: {} },
    spokenCode: { verified: null, engine: 'none', detail: 'test' },
  },
  at: Date = new Date(),
): Promise<void> {
  await addEvidence(t.db, createDataCipher(loadDataKey(t.config).key), { uuidTrx: ids.uuidTrx.toLowerCase(), grantorId: ids.grantorId, kind: evidenceKind.videoToken, payload: decision }, at);
}

/** A usable ID front read as id-capture stores it, for tests of the calls after it that do not read a real card. */
export async function usableFront(
  t: { db: Db; config: Config },
  headers: { transaccion: string },
  grantorId = demoId,
  read: { documentType: string; ocrData: Record<string, string> } = { documentType: 'INE', ocrData: {} },
): Promise<void> {
  await addEvidence(t.db, createDataCipher(loadDataKey(t.config).key), {
    uuidTrx: headers.transaccion.toLowerCase(),
    grantorId,
    kind: evidenceKind.idFront,
    payload: { verdict: { kind: 'accepted' }, ...read },
  });
}
