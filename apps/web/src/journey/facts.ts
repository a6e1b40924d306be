import type { StateKey } from '@kyc/contracts/state';
import { currentGrantorParams } from '../session/grantor';
import { sessionState, type StateStorage } from '../session/storage';
import { readUserData } from '../session/userData';
import type { JourneyFacts } from './order';

/** What the session says is done, for the journey's order (journey/order.ts). */
export function journeyFacts(storage: StateStorage = sessionState()): JourneyFacts {
  const data = readUserData(storage);
  const accepted = (description: string) => data.some((d) => d.description === description && d.value === 'true');
  const apikey = storage.get('apikeyOtorgante');
  return {
    started: Boolean(apikey && storage.get('uuidTrx') && storage.get('uuidUser')),
    terminos: accepted('terms_acepted'),
    clausula: accepted('req_elec_acepted'),
    autorizacion: accepted('request_report_acepted'),
    id: Boolean(storage.get('ocrFront')),
    face: Boolean(storage.get('face')),
    apikey,
    params: currentGrantorParams(),
  };
}

/**
 * What a cancellation forgets: the transaction and everything done in it, so Back or a typed route cannot resume
 * it; the next start from the entry route opens a new one. The grantor, the client id and the lock stay.
 */
export const cancelledJourneyKeys: readonly StateKey[] = ['uuidTrx', 'data_user', 'ocrFront', 'ocrBack', 'ocrFrontOk', 'ocrBackOk', 'links', 'fields', 'flag', 'face', 'codes', 'intentsData'];

export function forgetJourney(storage: StateStorage = sessionState()): void {
  for (const key of cancelledJourneyKeys) storage.remove(key);
}
