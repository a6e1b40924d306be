import type { DataCipher } from '../crypto/data-cipher.js';
import type { Db } from '../store/db.js';
import { enqueueJob, type ClaimedJob } from './queue.js';
import type { JobHandler } from './worker.js';

/**
 * A job that runs again and again (the retention sweep, the funnel's fold): one run waits in the jobs table at a
 * time, whichever worker takes it, and each run queues the next before it works, so a failing run never ends the
 * schedule and two workers never run it together.
 */

/** Queues a run of `kind` at `runAt` unless one is already waiting (besides `exceptJobId`, the one running now). */
export async function scheduleRecurring(db: Db, cipher: DataCipher, kind: string, runAt: Date, exceptJobId?: string): Promise<void> {
  let waiting = db.selectFrom('jobs').select('id').where('kind', '=', kind).where('state', 'in', ['pending', 'running']);
  if (exceptJobId) waiting = waiting.where('id', '!=', exceptJobId);
  if (await waiting.limit(1).executeTakeFirst()) return;
  await enqueueJob(db, cipher, { kind, payload: {}, runAt }, new Date());
}

/** The handler of a recurring job: it queues its successor `intervalMs` later, then runs. */
export function recurringHandler(deps: { db: Db; cipher: DataCipher }, kind: string, intervalMs: number, run: (job: ClaimedJob, now: Date) => Promise<void>): JobHandler {
  return async (job) => {
    const now = new Date();
    await scheduleRecurring(deps.db, deps.cipher, kind, new Date(now.getTime() + intervalMs), job.id);
    await run(job, now);
  };
}
