import { folioOf } from '@kyc/contracts/state';
import { sessionState, type StateStorage } from './storage';

/** The identifiers every call and screen needs, read from the browser state of docs/flow.md §3. */
export interface SessionFacts {
  uuidUser: string | null;
  uuidTrx: string | null;
  apikey: string | null;
  idOtorgante: string | null;
  uuidOtorgante: string | null;
  /** Expiry of the result link (epoch ms as a string), stored by /pdf_token. */
  fechavigencia: string | null;
  /** The result link's credential (the /pdf_token query's token): the link flow's X-Consumer-Custom-ID. */
  linkToken: string | null;
  /** The transaction's token, issued when the transaction started: sent on the calls that read its data. */
  transactionToken: string | null;
  /** Spec §4: lifecycle updates are sent only while this is the string 'false'. */
  completado: string | null;
  externalReference: string | null;
}

export function readSession(storage: StateStorage = sessionState()): SessionFacts {
  return {
    uuidUser: storage.get('uuidUser'),
    uuidTrx: storage.get('uuidTrx'),
    apikey: storage.get('apikeyOtorgante'),
    idOtorgante: storage.get('idOtorgante'),
    uuidOtorgante: storage.get('uuidOtorgante'),
    fechavigencia: storage.get('fechavigencia'),
    linkToken: storage.get('linkToken'),
    transactionToken: storage.get('transactionToken'),
    completado: storage.get('completado'),
    externalReference: storage.get('externalReference'),
  };
}

/** Short process folio: first segment of the transaction id (docs/flow.md §1 help overlay, §8). */
export function processFolio(storage: StateStorage = sessionState()): string {
  return folioOf(storage.get('uuidTrx'));
}
