import { paramEnabled, paramValue, type GrantorParam } from '@kyc/contracts';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { evidenceKind, type CurpCheck, type IneCheck, type ProofReading, type VideoTokenDecision } from '../../domain/evidence-kinds.js';
import { minFaceScoreParam, ruleList, scoreTransaction, type IdReadFacts, type ScoreFacts, type ScoreResult, type ScoreSettings } from './score.js';
import { isLocked } from '../../domain/transactions.js';
import type { Db } from '../../store/db.js';
import { latestEvidence } from '../../store/evidence.js';
import { findTransaction } from '../../store/transactions.js';

/** The latest evidence of every kind the score reads, decrypted. */
export async function readScoreFacts(db: Db, cipher: DataCipher, uuidTrx: string, now: Date = new Date()): Promise<ScoreFacts> {
  const latest = async <T>(kind: string) => (await latestEvidence(db, cipher, uuidTrx, kind))?.payload as T | undefined;
  const [front, back, renapo, ine, face, proof, transaction] = await Promise.all([
    latest<IdReadFacts>(evidenceKind.idFront),
    latest<IdReadFacts>(evidenceKind.idBack),
    latest<CurpCheck>(evidenceKind.renapo),
    latest<IneCheck>(evidenceKind.ine),
    latest<VideoTokenDecision>(evidenceKind.videoToken),
    latest<ProofReading>(evidenceKind.proofReading),
    findTransaction(db, uuidTrx),
  ]);
  return { front, back, renapo, ine, face, proof, locked: isLocked(transaction?.lockUntil ?? null, now) };
}

export function scoreSettings(params: readonly GrantorParam[]): ScoreSettings {
  return {
    renapoEnabled: paramEnabled(params, 'ENABLE_RENAPO'),
    ineEnabled: paramEnabled(params, 'ENABLE_INE'),
    minFaceScore: minFaceScoreParam(paramValue(params, 'SCORE_SIMILITUD_MINIMA')),
    optional: ruleList(paramValue(params, 'SCORE_REGLAS_OPCIONALES')),
    strict: ruleList(paramValue(params, 'SCORE_REGLAS_ESTRICTAS')),
    proofRequired: paramEnabled(params, 'REQ_COMPROBANTE_DOMICILIO'),
  };
}

/** The transaction's score now, from its evidence and the grantor's parameters. */
export async function scoreOf(db: Db, cipher: DataCipher, uuidTrx: string, params: readonly GrantorParam[], now: Date = new Date()): Promise<ScoreResult> {
  return scoreTransaction(await readScoreFacts(db, cipher, uuidTrx, now), scoreSettings(params), now);
}
