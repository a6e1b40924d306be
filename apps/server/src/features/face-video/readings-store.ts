/**
 * The prints of accepted readings (reading-print.ts), kept per face-video evidence and looked up for the same
 * holder: this transaction and every transaction of the grantor whose ID carried the same CURP (the console's keyed
 * blind index, so no CURP is stored here). The print is encrypted like the evidence it belongs to.
 */
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import { parsePrint, samePrint, type ReadingPrint } from './reading-print.js';
import type {} from '../console/tables.js';
import type {} from './tables.js';

const context = (uuidTrx: string, evidenceId: string) => `video-token-reading:${uuidTrx}:${evidenceId}`;

/** Most recent prints compared per decision (a holder with more accepted videos than this is compared with these). */
export const READINGS_COMPARED = 200;

export interface EarlierReading {
  uuidTrx: string;
  evidenceId: string;
}

export async function recordReading(db: Db, cipher: DataCipher, reading: { uuidTrx: string; grantorId: string; evidenceId: string; print: ReadingPrint }, now: Date): Promise<void> {
  await db
    .insertInto('video_token_readings')
    .values({
      evidence_id: reading.evidenceId,
      uuid_trx: reading.uuidTrx,
      grantor_id: reading.grantorId,
      print_enc: cipher.encrypt(JSON.stringify(reading.print), context(reading.uuidTrx, reading.evidenceId)),
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('evidence_id').doNothing())
    .execute();
}

/**
 * The earlier accepted reading of this holder that `print` repeats, if any, and how many were compared: this
 * transaction's and those of the transactions sharing its CURP at this grantor.
 */
export async function findRepeatedReading(
  db: Db,
  cipher: DataCipher,
  scope: { uuidTrx: string; grantorId: string },
  print: ReadingPrint,
): Promise<{ compared: number; repeated: EarlierReading | null }> {
  const terms = db.selectFrom('console_search_terms').select('term_hmac').where('uuid_trx', '=', scope.uuidTrx).where('grantor_id', '=', scope.grantorId).where('kind', '=', 'curp');
  const sameHolder = db.selectFrom('console_search_terms').select('uuid_trx').where('grantor_id', '=', scope.grantorId).where('kind', '=', 'curp').where('term_hmac', 'in', terms);
  const rows = await db
    .selectFrom('video_token_readings')
    .select(['evidence_id', 'uuid_trx', 'print_enc'])
    .where('grantor_id', '=', scope.grantorId)
    .where((eb) => eb.or([eb('uuid_trx', '=', scope.uuidTrx), eb('uuid_trx', 'in', sameHolder)]))
    .orderBy('created_at', 'desc')
    .limit(READINGS_COMPARED)
    .execute();
  for (const row of rows) {
    const earlier = parsePrint(JSON.parse(cipher.decrypt(row.print_enc, context(row.uuid_trx, row.evidence_id))));
    if (earlier && samePrint(print, earlier)) return { compared: rows.length, repeated: { uuidTrx: row.uuid_trx, evidenceId: row.evidence_id } };
  }
  return { compared: rows.length, repeated: null };
}
