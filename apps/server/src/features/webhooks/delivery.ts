import type { DataCipher } from '../../crypto/data-cipher.js';
import type { ClaimedJob } from '../../jobs/queue.js';
import type { Db } from '../../store/db.js';
import { withheldReason } from '../../store/transactions.js';
import type { WebhookJobPayload } from './events.js';
import { signatureHeader, signPayload } from './signing.js';
import { endpointForDelivery, recordDelivery } from './store.js';

/** A receiver must answer within this; slower counts as a failed attempt and is retried. */
export const deliveryTimeoutMs = 10_000;

/**
 * The webhook job: POSTs the event, signed, to its endpoint; a 2xx answer ends the job, anything else (another
 * status, a timeout, a refused connection) throws so the queue retries it with backoff. Every attempt is logged.
 * A delivery of a transaction blocked or erased since it was queued is dropped, logged, and never sent.
 */
export function webhookJobHandler(deps: { db: Db; cipher: DataCipher; timeoutMs?: number }) {
  return async (job: ClaimedJob): Promise<void> => {
    const { endpointId, event } = job.payload as WebhookJobPayload;
    const endpoint = await endpointForDelivery(deps.db, deps.cipher, endpointId);
    if (!endpoint) return; // removed since: nothing to deliver
    const withheld = job.uuidTrx ? await withheldReason(deps.db, job.uuidTrx) : undefined;
    if (withheld) {
      // Queued before the block or erasure: nothing more is said about the person; the log says why (dropped).
      const error = `not sent: the transaction's data was ${withheld} (data-subject request or retention)`;
      await recordDelivery(deps.db, { jobId: job.id, endpointId, eventId: event.id, eventType: event.type, attempt: job.attempts, statusCode: null, durationMs: 0, error });
      return;
    }
    const body = JSON.stringify(event);
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'kyc-onboarding-webhooks/1', [signatureHeader]: signPayload(endpoint.secret, body, Math.floor(Date.now() / 1000)) },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(deps.timeoutMs ?? deliveryTimeoutMs),
      });
      statusCode = response.status;
      await response.body?.cancel();
      if (statusCode < 200 || statusCode > 299) error = `the receiver answered ${statusCode}`;
    } catch (failure) {
      error =
        failure instanceof Error && failure.name === 'TimeoutError' ? 'no answer within the timeout' : `could not reach the receiver: ${failure instanceof Error ? failure.message : String(failure)}`;
    }
    await recordDelivery(deps.db, { jobId: job.id, endpointId, eventId: event.id, eventType: event.type, attempt: job.attempts, statusCode, durationMs: performance.now() - started, error });
    if (error) throw new Error(error);
  };
}
