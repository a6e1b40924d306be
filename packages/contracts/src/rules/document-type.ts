import { isTruthyParam } from './flags.js';

export const documentTypes = ['INE', 'PASAPORTE', 'DNI_PERU', 'FMM'] as const;
export type DocumentType = (typeof documentTypes)[number];

type Flag = boolean | string | null | undefined;

export interface DocumentFlags {
  identificacionElectoral?: Flag;
  identificacionPasaporte?: Flag;
  identificacionMigratoria?: Flag;
  documentoNacionalPeru?: Flag;
}

/** Spec §3 document type from the OCR front flags; INE by default and when the electoral flag is set. */
export function documentType(flags: DocumentFlags): DocumentType {
  if (isSet(flags.identificacionElectoral)) return 'INE';
  if (isSet(flags.identificacionPasaporte)) return 'PASAPORTE';
  if (isSet(flags.documentoNacionalPeru)) return 'DNI_PERU';
  if (isSet(flags.identificacionMigratoria)) return 'FMM';
  return 'INE';
}

// OCR payloads sometimes carry flags as 'true' strings.
function isSet(flag: Flag): boolean {
  return flag === true || (typeof flag === 'string' && isTruthyParam(flag));
}
