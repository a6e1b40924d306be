import type { DataCipher } from '../../crypto/data-cipher.js';
import { normalizeId } from '../../domain/transactions.js';
import { uuidv7 } from '../../store/ids.js';
import type { Db } from '../../store/db.js';
import { blindTerm, normaliseCurpTerm } from '../console/case-index.js';
import { audit } from '../console/store.js';
import { eraseTransaction, isHeld, type EraseContext } from './erase.js';

export type RequestAction = 'block' | 'delete';
export type Subject = { kind: 'folio'; folio: string } | { kind: 'curp'; curp: string };

export interface DataSubjectRequest {
  grantorId: string;
  action: RequestAction;
  subject: Subject;
  /** Who filed it (the lender's privacy officer, by name or e-mail). */
  requestedBy: string;
  /** The person's request reference or legal basis, as given. */
  basis: string;
}

export interface RequestOutcome {
  id: string;
  status: 'done' | 'partial' | 'refused' | 'not_found';
  done: string[];
  refused: { uuidTrx: string; reason: string }[];
}

export class RequestError extends Error {
  override name = 'RequestError';
}

/** The grantor's transactions the subject names: the folio itself, or every case whose CURP's blind index matches. */
async function subjectTransactions(db: Db, cipher: DataCipher, grantorId: string, subject: Subject): Promise<{ stored: string; trx: string[] }> {
  if (subject.kind === 'folio') {
    const folio = normalizeId(subject.folio);
    const row = await db.selectFrom('transactions').select('uuid_trx').where('uuid_trx', '=', folio).where('grantor_id', '=', grantorId).executeTakeFirst();
    return { stored: folio, trx: row ? [row.uuid_trx] : [] };
  }
  const curp = normaliseCurpTerm(subject.curp);
  if (!/^[A-Z0-9]{18}$/.test(curp)) throw new RequestError('a CURP has 18 letters and digits');
  const hmac = blindTerm(cipher, grantorId, 'curp', curp);
  const rows = await db.selectFrom('console_search_terms').select('uuid_trx').distinct().where('grantor_id', '=', grantorId).where('kind', '=', 'curp').where('term_hmac', '=', hmac).execute();
  return { stored: hmac, trx: rows.map((r) => r.uuid_trx).sort() };
}

/**
 * Executes a block or delete request at once and records it (who, when, what was done, what was refused and why).
 * A block marks each transaction restricted: no capture, read or document from then on. A delete erases each one
 * unless it is under a legal hold, which is refused with the hold's reason.
 */
export async function executeRequest(ctx: EraseContext & { cipher: DataCipher }, request: DataSubjectRequest, now: Date = new Date()): Promise<RequestOutcome> {
  const requestedBy = request.requestedBy.trim();
  const basis = request.basis.trim();
  if (!requestedBy || requestedBy.length > 200) throw new RequestError('who asked is required (1 to 200 characters)');
  if (!basis || basis.length > 500) throw new RequestError('the request reference or legal basis is required (1 to 500 characters)');
  const { db } = ctx;
  const { stored, trx } = await subjectTransactions(db, ctx.cipher, request.grantorId, request.subject);
  const id = uuidv7(now.getTime());
  const done: string[] = [];
  const refused: RequestOutcome['refused'] = [];
  for (const uuidTrx of trx) {
    if (request.action === 'block') {
      await db.updateTable('transactions').set({ restricted_at: now.toISOString() }).where('uuid_trx', '=', uuidTrx).where('restricted_at', 'is', null).execute();
      done.push(uuidTrx);
      continue;
    }
    const hold = await isHeld(db, uuidTrx);
    if (hold !== undefined) {
      refused.push({ uuidTrx, reason: `legal hold: ${hold}` });
      continue;
    }
    await eraseTransaction(ctx, { uuidTrx, grantorId: request.grantorId }, 'request', now, id);
    done.push(uuidTrx);
  }
  const status: RequestOutcome['status'] = trx.length === 0 ? 'not_found' : refused.length === 0 ? 'done' : done.length === 0 ? 'refused' : 'partial';
  await db
    .insertInto('retention_requests')
    .values({
      id,
      grantor_id: request.grantorId,
      action: request.action,
      subject_kind: request.subject.kind,
      subject: stored,
      requested_by: requestedBy,
      basis,
      status,
      detail: JSON.stringify({ done, refused }),
      created_at: now.toISOString(),
    })
    .execute();
  await audit(db, { action: 'data_subject_request', grantorId: request.grantorId, ip: 'cli', detail: { requestId: id, action: request.action, status, requestedBy, done, refused } }, now);
  return { id, status, done, refused };
}

export async function listRequests(db: Db, grantorId: string, limit = 50) {
  const rows = await db.selectFrom('retention_requests').selectAll().where('grantor_id', '=', grantorId).orderBy('created_at', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as { done: string[]; refused: RequestOutcome['refused'] } }));
}

export async function placeHold(db: Db, hold: { uuidTrx: string; reason: string; placedBy: string }, now: Date = new Date()): Promise<void> {
  const uuidTrx = normalizeId(hold.uuidTrx);
  const reason = hold.reason.trim();
  if (!reason || reason.length > 500) throw new RequestError('a hold needs its reason (1 to 500 characters)');
  const trx = await db.selectFrom('transactions').select(['grantor_id']).where('uuid_trx', '=', uuidTrx).executeTakeFirst();
  if (!trx) throw new RequestError(`no transaction ${uuidTrx}`);
  await db
    .insertInto('retention_holds')
    .values({ uuid_trx: uuidTrx, grantor_id: trx.grantor_id, reason, placed_by: hold.placedBy.trim() || 'cli', placed_at: now.toISOString() })
    .onConflict((oc) => oc.column('uuid_trx').doUpdateSet({ reason, placed_by: hold.placedBy.trim() || 'cli', placed_at: now.toISOString() }))
    .execute();
}

export async function releaseHold(db: Db, uuidTrx: string): Promise<boolean> {
  const result = await db.deleteFrom('retention_holds').where('uuid_trx', '=', normalizeId(uuidTrx)).executeTakeFirst();
  return (result.numDeletedRows ?? 0n) > 0n;
}
