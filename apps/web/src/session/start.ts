import { stateKeys, type StateKey } from '@kyc/contracts/state';
import { jwtSubject } from './popup';
import type { StateStorage } from './storage';

/**
 * Kept when a new journey starts: the one-hour lockout after a failed finalisation (docs/flow.md §4 "Lockout")
 * must survive a restart from the entry route. Every other key of docs/flow.md §3 belongs to the previous journey.
 */
export const keysKeptAcrossJourneys: ReadonlySet<StateKey> = new Set<StateKey>(['bloqueo', 'time']);
export const previousJourneyKeys: readonly StateKey[] = stateKeys.filter((key) => !keysKeptAcrossJourneys.has(key));

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string | null | undefined): value is string {
  return typeof value === 'string' && uuidPattern.test(value);
}

export interface StartInput {
  /** The entry route's parameter: the grantor's api key. */
  apikey: string;
  /** location.search of the entry route. */
  search: string;
}

export interface StartedJourney {
  uuidUser: string;
  uuidTrx: string;
  apikey: string;
}

/**
 * START state of docs/flow.md §4: reads cliente (uuidUser), uuidTrx and the popup query (referer, jwt, schema),
 * generates identifiers when absent, clears the previous journey's keys and sets completado to 'false'.
 * Identifiers that are not uuids are replaced too: every call sends them in uuid-validated headers.
 */
export function beginJourney(input: StartInput, storage: StateStorage, randomUUID: () => string): StartedJourney {
  const query = new URLSearchParams(input.search);
  const cliente = query.get('cliente');
  const trx = query.get('uuidTrx');
  // Popup mode: the user id the launcher's identity call issued (the JWT's subject, checked by the server).
  const launched = jwtSubject(query.get('jwt'));
  const uuidUser = isUuid(cliente) ? cliente.toLowerCase() : isUuid(launched) ? launched.toLowerCase() : randomUUID();
  const uuidTrx = isUuid(trx) ? trx.toLowerCase() : randomUUID();

  for (const key of previousJourneyKeys) storage.remove(key);

  storage.set('uuidUser', uuidUser);
  storage.set('uuidTrx', uuidTrx);
  storage.set('apikeyOtorgante', input.apikey);
  storage.set('completado', 'false');

  const popupQuery: ReadonlyArray<readonly [string, StateKey]> = [
    ['referer', 'externalReference'],
    ['jwt', 'externalJWT'],
    ['schema', 'package'],
  ];
  for (const [name, key] of popupQuery) {
    const value = query.get(name);
    if (value) storage.set(key, value);
  }

  return { uuidUser, uuidTrx, apikey: input.apikey };
}
