import { createHmac } from 'node:crypto';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import type {} from './tables.js';

/**
 * The one recipient and the send count of a transaction's result e-mail (issue #15, docs/decisions.md "The result
 * e-mail"). The first accepted call binds the address the customer confirmed on the final screen; later calls may
 * only resend to it, at most `resends` times. Taken in one statement, so concurrent calls and several nodes sharing
 * PostgreSQL never send more.
 */
export type EmailClaim = { kind: 'first' | 'resend'; sends: number } | { kind: 'other_address' } | { kind: 'exhausted'; sends: number };

const context = (uuidTrx: string) => `result_emails:${uuidTrx}`;

/** Addresses compare without case or surrounding blanks (what mail servers do in practice). */
export function normalizeEmail(address: string): string {
  return address.trim().toLowerCase();
}

/** HMAC of the normalised address under a key derived from the data key: compared without decrypting. */
export function recipientHash(cipher: DataCipher, address: string): string {
  return createHmac('sha256', cipher.deriveKey('result-email-recipient')).update(normalizeEmail(address), 'utf8').digest('hex');
}

export async function claimResultEmail(db: Db, cipher: DataCipher, uuidTrx: string, address: string, resends: number, now: Date = new Date()): Promise<EmailClaim> {
  const hash = recipientHash(cipher, address);
  const at = now.toISOString();
  const maxSends = 1 + resends;
  const result = await db
    .insertInto('result_emails')
    .values({ uuid_trx: uuidTrx, recipient_hash: hash, recipient_enc: cipher.encrypt(address.trim(), context(uuidTrx)), sends: 1, first_at: at, last_at: at })
    .onConflict((oc) =>
      oc
        .column('uuid_trx')
        .doUpdateSet((eb) => ({ sends: eb(eb.ref('result_emails.sends'), '+', 1), last_at: at }))
        .where('result_emails.recipient_hash', '=', hash)
        .where('result_emails.sends', '<', maxSends),
    )
    .executeTakeFirst();
  const row = await db.selectFrom('result_emails').select(['recipient_hash', 'sends']).where('uuid_trx', '=', uuidTrx).executeTakeFirstOrThrow();
  const sends = Number(row.sends);
  if ((result.numInsertedOrUpdatedRows ?? 0n) > 0n) return { kind: sends === 1 ? 'first' : 'resend', sends };
  if (row.recipient_hash !== hash) return { kind: 'other_address' };
  return { kind: 'exhausted', sends };
}

/** Gives back a send whose e-mail could not be queued (the server failed, not the caller). */
export async function releaseResultEmail(db: Db, uuidTrx: string): Promise<void> {
  await db
    .updateTable('result_emails')
    .set((eb) => ({ sends: eb('sends', '-', 1) }))
    .where('uuid_trx', '=', uuidTrx)
    .where('sends', '>', 0)
    .execute();
}
