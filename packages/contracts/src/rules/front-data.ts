import { limits } from './limits.js';
import { messages } from './messages.js';

export interface FrontData {
  nombreCompleto?: string | null;
  curp?: string | null;
  dni?: string | null;
}

export type FrontDataCheck = { ok: true } | { ok: false; reason: typeof messages.frontDataFormat | typeof messages.frontDataIncomplete };

/**
 * Spec §5: acceptable only with a name and a CURP or DNI; the name needs 10 characters and the
 * DNI 3 or the CURP 16. When both IDs are present, either one meeting its minimum is enough.
 */
export function frontDataCheck(front: FrontData): FrontDataCheck {
  const name = front.nombreCompleto?.trim() ?? '';
  const curp = front.curp?.trim() ?? '';
  const dni = front.dni?.trim() ?? '';
  if (name === '' || (curp === '' && dni === '')) return { ok: false, reason: messages.frontDataIncomplete };
  const idLongEnough = dni.length >= limits.dniMinLength || curp.length >= limits.frontCurpMinLength;
  return idLongEnough && name.length >= limits.nameMinLength ? { ok: true } : { ok: false, reason: messages.frontDataFormat };
}
