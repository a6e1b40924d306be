import type { Cached } from '../../caches.js';
import { postalLookupCache, type PostalSettlement } from './cache.js';
import type { Kysely } from 'kysely';
import { asPostalDb, type PostalTables } from './tables.js';

export type { PostalSettlement } from './cache.js';

const spanish = new Intl.Collator('es');

function bySettlement(a: PostalSettlement, b: PostalSettlement): number {
  return spanish.compare(a.asentamiento, b.asentamiento) || spanish.compare(a.municipio, b.municipio) || spanish.compare(a.estado, b.estado);
}

/** The distinct settlements of a postal code straight from the database, in Spanish alphabetical order. */
export async function queryPostalCode<DB extends PostalTables>(db: Kysely<DB>, code: string): Promise<PostalSettlement[]> {
  if (!/^\d{5}$/.test(code)) return [];
  const rows = await asPostalDb(db)
    .selectFrom('postal_settlements')
    .select(['d_asenta as asentamiento', 'd_mnpio as municipio', 'd_estado as estado'])
    .distinct()
    .where('d_codigo', '=', code)
    .execute();
  return rows.map(({ municipio, estado, asentamiento }) => ({ municipio, estado, asentamiento })).sort(bySettlement);
}

/**
 * The settlements of a postal code (empty when the code is unknown or malformed), served from an in-process
 * cache of recent codes.
 */
export async function lookupPostalCode<DB extends PostalTables>({ db, caches }: Cached<Kysely<DB>>, code: string): Promise<Array<Readonly<PostalSettlement>>> {
  if (!/^\d{5}$/.test(code)) return [];
  const cache = postalLookupCache(caches);
  const cached = cache.get(code);
  if (cached) return cached.slice();
  const generation = cache.generation;
  const settlements = (await queryPostalCode(db, code)).map((settlement) => Object.freeze(settlement));
  cache.set(code, Object.freeze(settlements), generation);
  return settlements.slice();
}
