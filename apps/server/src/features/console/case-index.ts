import { createHmac } from 'node:crypto';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import type {} from './tables.js';

/**
 * The case list's own index of each transaction: the holder's name encrypted, and a keyed blind index
 * (HMAC-SHA256 with a key derived from the data key) of the CURP and of each word of the name, so that the
 * console finds a case by CURP or name without the database holding either in clear (docs/decisions.md,
 * "Console search: a keyed blind index"). Written by the features that learn the name or CURP.
 */
export const caseNameContext = (uuidTrx: string) => `console-case-name:${uuidTrx}`;

/** Upper case, accents and the tilde of Ñ removed, so that PEÑA, Peña and PENA are one term. */
export function normaliseTerm(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase();
}

export function normaliseCurpTerm(curp: string): string {
  return normaliseTerm(curp).replace(/[^A-Z0-9]/g, '');
}

/** The words of a name worth indexing (two letters or more). */
export function nameWords(name: string): string[] {
  return [
    ...new Set(
      normaliseTerm(name)
        .split(/[^A-Z]+/)
        .filter((w) => w.length >= 2),
    ),
  ];
}

export type TermKind = 'curp' | 'name';

/** The HMAC of a normalised term, bound to the grantor: the same CURP gives unrelated values for two grantors. */
export function blindTerm(cipher: DataCipher, grantorId: string, kind: TermKind, normalised: string): string {
  return createHmac('sha256', cipher.deriveKey('console-blind-index')).update(`${kind}\u0000${grantorId}\u0000${normalised}`, 'utf8').digest('hex');
}

export interface CaseIdentity {
  uuidTrx: string;
  grantorId: string;
  /** The holder's full name, when this step learnt it. */
  name?: string | undefined;
  /** The CURP, when this step learnt it. */
  curp?: string | undefined;
}

/**
 * Records what a step learnt of the holder: the name (encrypted, the latest wins) and the blind-index terms.
 * Terms accumulate (a misread then corrected name keeps both), which only widens what a search finds.
 */
export async function recordCaseIdentity(db: Db, cipher: DataCipher, identity: CaseIdentity, now: Date = new Date()): Promise<void> {
  const name = identity.name?.trim() ?? '';
  const curp = identity.curp ? normaliseCurpTerm(identity.curp) : '';
  if (!name && curp.length < 10) return;
  const at = now.toISOString();
  const nameEnc = name ? cipher.encrypt(name, caseNameContext(identity.uuidTrx)) : null;
  await db
    .insertInto('console_cases')
    .values({ uuid_trx: identity.uuidTrx, grantor_id: identity.grantorId, holder_name_enc: nameEnc, flag: null, updated_at: at })
    .onConflict((oc) => oc.column('uuid_trx').doUpdateSet(nameEnc ? { holder_name_enc: nameEnc, updated_at: at } : { updated_at: at }))
    .execute();
  const terms = [...(curp.length >= 10 ? [{ kind: 'curp' as const, term: curp }] : []), ...nameWords(name).map((term) => ({ kind: 'name' as const, term }))];
  if (terms.length === 0) return;
  await db
    .insertInto('console_search_terms')
    .values(terms.map((t) => ({ grantor_id: identity.grantorId, kind: t.kind, term_hmac: blindTerm(cipher, identity.grantorId, t.kind, t.term), uuid_trx: identity.uuidTrx })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Records the flag of a finished case's score. */
export async function recordCaseFlag(db: Db, c: { uuidTrx: string; grantorId: string; flag: string }, now: Date = new Date()): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto('console_cases')
    .values({ uuid_trx: c.uuidTrx, grantor_id: c.grantorId, holder_name_enc: null, flag: c.flag, updated_at: at })
    .onConflict((oc) => oc.column('uuid_trx').doUpdateSet({ flag: c.flag, updated_at: at }))
    .execute();
}
