import { createHash } from 'node:crypto';
import type { BlobStore } from '../../blob/blob-store.js';
import type { Db } from '../../store/db.js';
import { markFunnelDirty } from '../../store/funnel-marks.js';
import type {} from './tables.js';
// The tables of other features this module deletes rows from (declaration merging).
import type {} from '../console/tables.js';

export type EraseReason = 'policy_biometric' | 'policy_file' | 'request';

export interface EraseContext {
  db: Db;
  blobs: BlobStore;
}

interface Tombstone {
  id: string;
  uuidTrx: string;
  grantorId: string;
  kind: string;
  sha256: string;
  blobKey?: string | null;
  reason: EraseReason;
  requestId?: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The stored row as canonical JSON (keys sorted, integers as text), so its hash does not depend on the driver. */
export function rowHash(row: Record<string, unknown>): string {
  const canonical = Object.fromEntries(
    Object.keys(row)
      .sort()
      .map((k) => {
        const v = row[k];
        return [k, typeof v === 'bigint' || typeof v === 'number' ? String(v) : v];
      }),
  );
  return sha256(JSON.stringify(canonical));
}

/** Written before the deletion it records, and only once: a rerun after a crash finds it and adds nothing. */
async function writeTombstones(db: Db, stones: Tombstone[], now: Date): Promise<void> {
  if (stones.length === 0) return;
  await db
    .insertInto('retention_tombstones')
    .values(
      stones.map((s) => ({
        id: s.id,
        uuid_trx: s.uuidTrx,
        grantor_id: s.grantorId,
        kind: s.kind,
        sha256: s.sha256,
        blob_key: s.blobKey ?? null,
        reason: s.reason,
        request_id: s.requestId ?? null,
        deleted_at: now.toISOString(),
      })),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export interface MediaItem {
  id: string;
  uuidTrx: string;
  grantorId: string;
  kind: string;
  blobKey: string;
  sha256: string | null;
}

/**
 * Deletes one biometric medium: the tombstone, then the blob (a missing blob is not an error), then the evidence
 * row loses its blob key; the row itself (what was read, the decision) stays with the file.
 */
export async function purgeMedia(ctx: EraseContext, item: MediaItem, reason: EraseReason, now: Date, requestId?: string): Promise<void> {
  const hash = item.sha256 ?? sha256(item.blobKey);
  await writeTombstones(
    ctx.db,
    [{ id: `media:${item.id}`, uuidTrx: item.uuidTrx, grantorId: item.grantorId, kind: item.kind, sha256: hash, blobKey: item.blobKey, reason, requestId: requestId ?? null }],
    now,
  );
  await ctx.blobs.delete(item.blobKey);
  await ctx.db.updateTable('evidence').set({ blob_key: null }).where('id', '=', item.id).execute();
}

/** Tables holding a transaction's data besides evidence, deleted row by row with a tombstone each. */
const transactionTables = [
  'lifecycle_events',
  'audit_events',
  'transaction_attempts',
  'transaction_event_counts',
  'sms_codes',
  'video_token_codes',
  'video_token_readings',
  'result_links',
  'result_emails',
  'redo_requests',
  'transaction_outcomes',
  'console_cases',
  'console_search_terms',
  'jobs',
  'webhook_queue',
] as const;

/**
 * Deletes every blob and row of a transaction, keeping one tombstone per item, and marks it erased. The
 * transaction row stays (folio, grantor, the lender's client id, dates) so that the folio answers 410 and the
 * tombstones have something to prove. Safe to rerun at any point.
 */
export async function eraseTransaction(ctx: EraseContext, trx: { uuidTrx: string; grantorId: string }, reason: EraseReason, now: Date, requestId?: string): Promise<number> {
  const { db } = ctx;
  let deleted = 0;
  const evidence = await db.selectFrom('evidence').selectAll().where('uuid_trx', '=', trx.uuidTrx).execute();
  await writeTombstones(
    db,
    evidence.map((row) => ({
      id: `evidence:${row.id}`,
      uuidTrx: trx.uuidTrx,
      grantorId: trx.grantorId,
      kind: row.kind,
      sha256: row.blob_key && row.sha256 ? row.sha256 : rowHash(row as unknown as Record<string, unknown>),
      blobKey: row.blob_key,
      reason,
      requestId: requestId ?? null,
    })),
    now,
  );
  for (const row of evidence) if (row.blob_key) await ctx.blobs.delete(row.blob_key);
  deleted += Number((await db.deleteFrom('evidence').where('uuid_trx', '=', trx.uuidTrx).executeTakeFirst()).numDeletedRows ?? 0n);

  for (const table of transactionTables) {
    await db.transaction().execute(async (tx) => {
      const any = tx as unknown as Db & { selectFrom(t: string): any; deleteFrom(t: string): any };
      const rows = (await any.selectFrom(table).selectAll().where('uuid_trx', '=', trx.uuidTrx).execute()) as Record<string, unknown>[];
      if (rows.length === 0) return;
      await writeTombstones(
        tx,
        rows.map((row) => {
          const hash = rowHash(row);
          return { id: `${table}:${hash}`, uuidTrx: trx.uuidTrx, grantorId: trx.grantorId, kind: table, sha256: hash, reason, requestId: requestId ?? null };
        }),
        now,
      );
      const result = await any.deleteFrom(table).where('uuid_trx', '=', trx.uuidTrx).executeTakeFirst();
      deleted += Number(result.numDeletedRows ?? 0n);
    });
  }
  await db.updateTable('transactions').set({ erased_at: now.toISOString() }).where('uuid_trx', '=', trx.uuidTrx).where('erased_at', 'is', null).execute();
  // Its events are gone: the funnel counts it as opened only from now on, as the live computation does.
  await markFunnelDirty(db, trx.uuidTrx, trx.grantorId);
  return deleted;
}

export async function isHeld(db: Db, uuidTrx: string): Promise<string | undefined> {
  const row = await db.selectFrom('retention_holds').select(['reason']).where('uuid_trx', '=', uuidTrx).executeTakeFirst();
  return row?.reason;
}
