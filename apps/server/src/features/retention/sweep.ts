import type { FastifyBaseLogger } from 'fastify';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { recurringHandler, scheduleRecurring } from '../../jobs/recurring.js';
import type { JobHandler } from '../../jobs/worker.js';
import type { Db } from '../../store/db.js';
import { eraseTransaction, purgeMedia, type EraseContext } from './erase.js';
import { biometricEvidenceKinds, cutoffs, readPolicy } from './policy.js';

export const retentionSweepJobKind = 'retention_sweep';
/** A sweep an hour; sooner while a bounded run left expired items behind. */
export const sweepIntervalMs = 60 * 60_000;
const catchUpMs = 60_000;

export interface SweepLimits {
  /** Biometric media deleted per run. */
  media: number;
  /** Whole transactions erased per run. */
  transactions: number;
}

export const defaultSweepLimits: SweepLimits = { media: 200, transactions: 20 };

export interface SweepResult {
  media: number;
  transactions: number;
  /** True when the limits stopped the run before every expired item was deleted. */
  more: boolean;
}

const heldTrx = (db: Db) => db.selectFrom('retention_holds').select('uuid_trx');

/**
 * One bounded pass of every grantor's policy at `now`: biometric media older than its days lose their blob, and
 * transactions without activity for the file's years are erased. Held transactions are skipped; an erased one is
 * never picked again, and a medium already purged has no blob key, so a rerun deletes nothing twice.
 */
export async function runRetentionSweep(ctx: EraseContext, now: Date = new Date(), limits: SweepLimits = defaultSweepLimits): Promise<SweepResult> {
  const { db } = ctx;
  const result: SweepResult = { media: 0, transactions: 0, more: false };
  const grantors = await db.selectFrom('grantors').select('id').orderBy('id').execute();
  for (const { id: grantorId } of grantors) {
    const cut = cutoffs(await readPolicy(db, grantorId), now);
    const mediaLeft = limits.media - result.media;
    const media = await db
      .selectFrom('evidence')
      .select(['id', 'uuid_trx', 'kind', 'blob_key', 'sha256'])
      .where('grantor_id', '=', grantorId)
      .where('created_at', '<', cut.media)
      .where('kind', 'in', [...biometricEvidenceKinds])
      .where('blob_key', 'is not', null)
      .where('uuid_trx', 'not in', heldTrx(db))
      .orderBy('created_at')
      .limit(mediaLeft + 1)
      .execute();
    for (const row of media.slice(0, mediaLeft)) {
      await purgeMedia(ctx, { id: row.id, uuidTrx: row.uuid_trx, grantorId, kind: row.kind, blobKey: row.blob_key!, sha256: row.sha256 }, 'policy_biometric', now);
      result.media += 1;
    }
    if (media.length > mediaLeft) result.more = true;

    const trxLeft = limits.transactions - result.transactions;
    const expired = await db
      .selectFrom('transactions')
      .select(['uuid_trx'])
      .where('grantor_id', '=', grantorId)
      .where('erased_at', 'is', null)
      .where('updated_at', '<', cut.file)
      .where('uuid_trx', 'not in', heldTrx(db))
      .orderBy('updated_at')
      .limit(trxLeft + 1)
      .execute();
    for (const row of expired.slice(0, trxLeft)) {
      await eraseTransaction(ctx, { uuidTrx: row.uuid_trx, grantorId }, 'policy_file', now);
      result.transactions += 1;
    }
    if (expired.length > trxLeft) result.more = true;
  }
  return result;
}

/** Queues the next sweep at `runAt` unless one is already waiting (besides `exceptJobId`, the one running now). */
export function scheduleSweep(db: Db, cipher: DataCipher, runAt: Date, exceptJobId?: string): Promise<void> {
  return scheduleRecurring(db, cipher, retentionSweepJobKind, runAt, exceptJobId);
}

/** The job: schedules its successor first, so that a failing sweep never ends the schedule, then sweeps. */
export function retentionSweepHandler(deps: EraseContext & { cipher: DataCipher }, log: FastifyBaseLogger): JobHandler {
  return recurringHandler(deps, retentionSweepJobKind, sweepIntervalMs, async (_job, now) => {
    const result = await runRetentionSweep(deps, now);
    if (result.more) {
      await deps.db
        .updateTable('jobs')
        .set({ run_at: new Date(now.getTime() + catchUpMs).toISOString() })
        .where('kind', '=', retentionSweepJobKind)
        .where('state', '=', 'pending')
        .execute();
    }
    log.info({ ...result }, 'retention sweep');
  });
}
