import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import { createMailer } from '../../mail/mailer.js';
import { createSmsSender } from '../sms/senders.js';
import { redoNoticeHandler, redoNoticeJobKind } from './notice.js';

/** The redo notices' job handler, through the same mailer and SMS sender as the result e-mail and the SMS codes. */
export function redoJobs(deps: Deps, log: FastifyBaseLogger) {
  const mailer = createMailer(deps.config, deps.cipher);
  const sms = createSmsSender(deps.config);
  log.debug({ mail: mailer.kind, sms: sms.kind }, 'redo notices');
  return { handlers: { [redoNoticeJobKind]: redoNoticeHandler({ db: deps.db, mailer, sms }) }, close: () => mailer.close() };
}
