import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import type { FeatureJobs } from '../index.js';
import { retentionSweepHandler, retentionSweepJobKind, scheduleSweep } from './sweep.js';

/** The worker's retention sweep: the first one is queued when a worker starts (if none waits), each queues the next. */
export function retentionJobs(deps: Deps, log: FastifyBaseLogger): FeatureJobs {
  scheduleSweep(deps.db, deps.cipher, new Date()).catch((err: unknown) => log.error({ err }, 'could not schedule the retention sweep'));
  return { handlers: { [retentionSweepJobKind]: retentionSweepHandler({ db: deps.db, blobs: deps.blobs, cipher: deps.cipher }, log) } };
}
