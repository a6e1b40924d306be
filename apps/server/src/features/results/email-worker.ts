import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import type { JobHandler } from '../../jobs/worker.js';
import { createMailer } from '../../mail/mailer.js';
import { emailJobHandler, emailJobKind } from './email-job.js';

/** The result e-mail's job handler and the mailer it sends through (closed with the worker). */
export function resultEmailJobs(deps: Deps, log: FastifyBaseLogger): { handlers: Record<string, JobHandler>; close: () => void } {
  const mailer = createMailer(deps.config, deps.cipher);
  log.info({ mail: mailer.kind }, mailer.kind === 'smtp' ? 'result e-mail through SMTP' : 'result e-mail to the local outbox (DATA_DIR/outbox)');
  return {
    handlers: { [emailJobKind]: emailJobHandler({ db: deps.db, cipher: deps.cipher, blobs: deps.blobs, caches: deps.caches, mailer }) },
    close: () => mailer.close(),
  };
}
