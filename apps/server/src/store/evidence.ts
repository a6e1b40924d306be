import type { DataCipher } from '../crypto/data-cipher.js';
import type { Selectable } from 'kysely';
import type { EvidenceTable } from './schema.js';
import type { Db } from './db.js';
import { evidenceKind } from '../domain/evidence-kinds.js';
import { markFunnelDirty } from './funnel-marks.js';
import { uuidv7 } from './ids.js';

export interface NewEvidence {
  uuidTrx: string;
  grantorId: string;
  kind: string;
  blobKey?: string;
  sha256?: string;
  /** Details worth keeping with the record (JSON), stored encrypted. */
  payload?: unknown;
}

/** A record without its payload: what may be listed to the grantor. */
export interface EvidenceSummary {
  id: string;
  kind: string;
  blobKey: string | null;
  sha256: string | null;
  createdAt: string;
}

export interface EvidenceRecord extends EvidenceSummary {
  /** Undefined when the record was stored without one. */
  payload: unknown;
}

const evidenceContext = (uuidTrx: string, id: string) => `evidence:${uuidTrx}:${id}`;

export async function addEvidence(db: Db, cipher: DataCipher, evidence: NewEvidence, now: Date = new Date()): Promise<string> {
  const id = uuidv7(now.getTime());
  await db
    .insertInto('evidence')
    .values({
      id,
      uuid_trx: evidence.uuidTrx,
      grantor_id: evidence.grantorId,
      kind: evidence.kind,
      blob_key: evidence.blobKey ?? null,
      sha256: evidence.sha256 ?? null,
      payload_enc: evidence.payload === undefined ? null : cipher.encrypt(JSON.stringify(evidence.payload), evidenceContext(evidence.uuidTrx, id)),
      created_at: now.toISOString(),
    })
    .execute();
  // A face-video decision is the funnel's video step.
  if (evidence.kind === evidenceKind.videoToken) await markFunnelDirty(db, evidence.uuidTrx, evidence.grantorId);
  return id;
}

/** The transaction's evidence in arrival order, without payloads. */
export async function listEvidence(db: Db, uuidTrx: string): Promise<EvidenceSummary[]> {
  const rows = await db.selectFrom('evidence').select(['id', 'kind', 'blob_key', 'sha256', 'created_at']).where('uuid_trx', '=', uuidTrx).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, kind: r.kind, blobKey: r.blob_key, sha256: r.sha256, createdAt: r.created_at }));
}

/** The most recent record of a kind, with its decrypted payload. */
export async function latestEvidence(db: Db, cipher: DataCipher, uuidTrx: string, kind: string): Promise<EvidenceRecord | undefined> {
  const row = await db.selectFrom('evidence').selectAll().where('uuid_trx', '=', uuidTrx).where('kind', '=', kind).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row && withPayload(cipher, uuidTrx, row);
}

/** Every record of a kind (or of every kind when omitted) in arrival order, with decrypted payloads. */
export async function listEvidenceWithPayload(db: Db, cipher: DataCipher, uuidTrx: string, kind?: string): Promise<EvidenceRecord[]> {
  let query = db.selectFrom('evidence').selectAll().where('uuid_trx', '=', uuidTrx);
  if (kind !== undefined) query = query.where('kind', '=', kind);
  const rows = await query.orderBy('id').execute();
  return rows.map((row) => withPayload(cipher, uuidTrx, row));
}

function withPayload(cipher: DataCipher, uuidTrx: string, row: Selectable<EvidenceTable>): EvidenceRecord {
  return {
    id: row.id,
    kind: row.kind,
    blobKey: row.blob_key,
    sha256: row.sha256,
    createdAt: row.created_at,
    payload: row.payload_enc === null ? undefined : JSON.parse(cipher.decrypt(row.payload_enc, evidenceContext(uuidTrx, row.id))),
  };
}
