import { paramInt, type GrantorParam, type ProofReadingWire } from '@kyc/contracts';
import { evidenceKind, type ProofReading } from '../../domain/evidence-kinds.js';
import { proofReading, type IdName } from './proof-reading.js';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { OcrImageError } from '../../engines/ocr/engine.js';
import type { OcrEngineProvider } from '../../engines/ocr/provider.js';
import type { Db } from '../../store/db.js';
import { latestEvidence } from '../../store/evidence.js';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The ID holder's name: what the user confirmed (data_user) first, else the ID front read. */
export async function idHolderName(db: Db, cipher: DataCipher, uuidTrx: string): Promise<IdName | null> {
  const saved = await latestEvidence(db, cipher, uuidTrx, evidenceKind.userData);
  const payload = saved?.payload as { data_user?: unknown } | unknown[] | undefined;
  const list = Array.isArray(payload) ? payload : Array.isArray(payload?.data_user) ? payload.data_user : [];
  const confirmed = (list as Array<{ description?: unknown; value?: unknown }>).find((d) => d.description === 'nombreCompleto' || d.description === 'nombre');
  const front = await latestEvidence(db, cipher, uuidTrx, evidenceKind.idFront);
  const ocrData = (front?.payload as { ocrData?: Record<string, unknown> } | undefined)?.ocrData ?? {};
  const name: IdName = {};
  const full = text(confirmed?.value) ?? text(ocrData.nombreCompleto);
  if (full) name.nombreCompleto = full;
  for (const key of ['nombres', 'apellidoPaterno', 'apellidoMaterno'] as const) {
    const value = text(ocrData[key]);
    if (value) name[key] = value;
  }
  return Object.keys(name).length > 0 ? name : null;
}

export interface ProofReadInput {
  image: Buffer;
  contentType: string;
  params: readonly GrantorParam[];
  idName: IdName | null;
  now: Date;
}

/** Reads the bill on the shared OCR engine; a PDF, an undecodable image or a busy engine give an empty reading. */
export async function readProof(ocr: OcrEngineProvider, input: ProofReadInput): Promise<ProofReading> {
  const months = paramInt(input.params, 'MESES_VIGENCIA_COMPROBANTE');
  if (!input.contentType.startsWith('image/')) {
    return proofReading(null, input.idName, input.now, months, 'pdf_not_read');
  }
  try {
    const result = await ocr.withSlot((engine) => engine.readProof(input.image));
    if (!result) return proofReading(null, input.idName, input.now, months, 'engine_busy');
    return proofReading(result.fields, input.idName, input.now, months, result.lineCount === 0 ? 'no_text' : undefined);
  } catch (error) {
    if (error instanceof OcrImageError) return proofReading(null, input.idName, input.now, months, 'not_an_image');
    throw error;
  }
}

export function proofReadingWire(reading: ProofReading, attemptsLeft: number): ProofReadingWire {
  const optional = (key: keyof ProofReadingWire, value: string | undefined) => (value ? { [key]: value } : {});
  return {
    leido: reading.read === true,
    ...optional('nombreCompleto', reading.holderName),
    ...optional('calle', reading.street),
    ...optional('numeroExterior', reading.exteriorNumber),
    ...optional('numeroInterior', reading.interiorNumber),
    ...optional('colonia', reading.settlement),
    ...optional('codigoPostal', reading.postalCode),
    ...optional('delegacion', reading.municipality),
    ...optional('estado', reading.state),
    ...optional('fechaEmision', reading.issueDate),
    coincideNombre: reading.nameMatchesId,
    vigente: reading.recent,
    intentosRestantes: attemptsLeft,
  };
}
