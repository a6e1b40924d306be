import type { ConsentAcceptance } from '../../domain/evidence-kinds.js';

/** The consents whose acceptance the flow records (audit tipo 'Aceptación', paso = the consent). */
const consents = new Set(['terminos', 'clausula', 'autorizacion', 'consulta_historial']);

/**
 * The consent evidence an acceptance audit event carries: the flow records each acceptance as an audit event whose
 * dato is { version, sha256, userAgent } of the text shown; the documents (clause, authorization) read it back as
 * consent evidence. Anything else (another tipo or paso, a dato without version and SHA-256) is not an acceptance.
 */
export function consentAcceptanceOf(event: { paso: string; tipo: string; dato: string }, from: { ip?: string; userAgent?: string }, now: Date): ConsentAcceptance | null {
  if (event.tipo !== 'Aceptación' || !consents.has(event.paso)) return null;
  let dato: unknown;
  try {
    dato = JSON.parse(event.dato);
  } catch {
    return null;
  }
  if (typeof dato !== 'object' || dato === null) return null;
  const { version, sha256, userAgent } = dato as Record<string, unknown>;
  if (typeof version !== 'string' || typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) return null;
  const agent = typeof userAgent === 'string' && userAgent ? userAgent : from.userAgent;
  return {
    consent: event.paso,
    version,
    sha256,
    acceptedAt: now.toISOString(),
    ...(from.ip ? { ip: from.ip } : {}),
    ...(agent ? { userAgent: agent } : {}),
  };
}
