import { frontDataCheck } from '@kyc/contracts/rules';
import type { GrantorParamId } from '@kyc/contracts';
import { attemptSteps } from '../../domain/attempts.js';
import type { IdSide, OcrResult } from '../../engines/ocr/types.js';

/**
 * What a read of one side of an ID means for the journey (docs/flow.md §4 "ID capture", §8 ID errors). Pure: the route
 * does the IO and applies the verdict.
 */
export const idSides = {
  front: { attemptStep: attemptSteps.idFront.step, limitParam: attemptSteps.idFront.limitParam as GrantorParamId, evidenceKind: 'ocr_frente' },
  back: { attemptStep: attemptSteps.idBack.step, limitParam: attemptSteps.idBack.limitParam as GrantorParamId, evidenceKind: 'ocr_reverso' },
} as const;

/** Where a refused read is kept: a refused back is never stored as the back (docs/flow.md §4 "ID capture"). */
export const refusedEvidenceKind = {
  front: 'ocr_frente',
  back: 'ocr_reverso_rechazado',
} as const;

export const idEvidenceKinds = {
  toleratedFront: 'ocr_frente_incompleto_tolerado',
  holderPhoto: 'rostro_identificacion',
} as const;

export type ReadVerdict =
  /** A usable read: the flow goes on. */
  | { kind: 'accepted' }
  /** Front data incomplete or badly formatted, tolerated once (docs/flow.md §4): 200, the flow goes on to the back. */
  | { kind: 'tolerated'; reason: string }
  /** Not usable: an attempt is counted and the user is asked to capture again. */
  | {
      kind: 'rejected';
      reason: 'not_a_document' | 'not_accepted' | 'wrong_side' | 'no_mrz' | 'mrz_invalid' | 'incomplete' | 'not_same_card';
      detail: string;
    };

export interface ReadContext {
  side: IdSide;
  /** This transaction already used its one tolerance for incomplete front data. */
  toleranceUsed: boolean;
}

function hasMrzBack(result: OcrResult): boolean {
  return result.mrz !== undefined && result.mrz.lines.length > 0;
}

/** A zone whose check digits fail was misread (or is not genuine): what it says must not be used. */
const mrzInvalid = {
  kind: 'rejected',
  reason: 'mrz_invalid',
  detail: 'the machine-readable zone failed its check digits',
} as const;

export function judgeRead(result: OcrResult, context: ReadContext): ReadVerdict {
  if (result.documentType === 'UNKNOWN') {
    return { kind: 'rejected', reason: 'not_a_document', detail: 'no official ID was recognised in the image' };
  }
  if (result.documentType === 'VISA') {
    return { kind: 'rejected', reason: 'not_accepted', detail: 'a visa is not an identification the flow accepts' };
  }
  if (result.side !== context.side) {
    return { kind: 'rejected', reason: 'wrong_side', detail: `the image shows the ${result.side} side, the ${context.side} was expected` };
  }
  if (context.side === 'back') {
    if (!hasMrzBack(result)) {
      return { kind: 'rejected', reason: 'no_mrz', detail: 'the machine-readable zone of the back could not be read' };
    }
    return result.mrz?.valid ? { kind: 'accepted' } : mrzInvalid;
  }
  if (result.mrz && !result.mrz.valid) return mrzInvalid;
  const data = result.ocrData;
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string).trim() : '');
  // An INE front whose name, or whose CURP and clave, could not be read at all is refused, never tolerated:
  // the reader leaves unread fields empty instead of filling them with neighbouring print (docs/decisions.md
  // "Label-anchored ID reading").
  if (result.documentType === 'INE' && (!text('nombreCompleto') || (!text('curp') && !text('claveElector')))) {
    return { kind: 'rejected', reason: 'incomplete', detail: 'the name or the CURP / clave de elector could not be read' };
  }
  const check = frontDataCheck({
    nombreCompleto: typeof data.nombreCompleto === 'string' ? data.nombreCompleto : undefined,
    curp: typeof data.curp === 'string' ? data.curp : undefined,
    dni: typeof data.dni === 'string' ? data.dni : undefined,
  });
  if (check.ok) return { kind: 'accepted' };
  return context.toleranceUsed ? { kind: 'rejected', reason: 'incomplete', detail: check.reason } : { kind: 'tolerated', reason: check.reason };
}

/** The key of an uploaded ID image: `<grantor>/<user>/identificacion/<transaction>-<side>-<time>-<suffix>.<ext>`. */
export function idImageKey(parts: { grantorId: string; uuidUser: string; uuidTrx: string; side: IdSide; stamp: string; suffix: string; extension: string }): string {
  return `${parts.grantorId}/${parts.uuidUser}/identificacion/${parts.uuidTrx}-${parts.side}-${parts.stamp}-${parts.suffix}.${parts.extension}`;
}
