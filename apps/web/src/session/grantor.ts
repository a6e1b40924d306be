import { useSyncExternalStore } from 'react';
import { paramValue, type GrantorParam } from '@kyc/contracts/params';
import { readJson, sessionState, writeJson, type StateStorage } from './storage';

export type GrantorParams = readonly GrantorParam[];

export function isGrantorParamList(value: unknown): value is GrantorParam[] {
  return (
    Array.isArray(value) &&
    value.every((item: unknown) => typeof item === 'object' && item !== null && typeof (item as GrantorParam).idCampo === 'string' && typeof (item as GrantorParam).valor === 'string')
  );
}

/** Stores the grantor parameters as dataOtorgante, and ID_OTORGANTE as idOtorgante and uuidOtorgante. */
export function storeGrantorParams(storage: StateStorage, params: GrantorParams): void {
  writeJson(storage, 'dataOtorgante', params);
  const id = paramValue(params, 'ID_OTORGANTE');
  if (id) {
    storage.set('idOtorgante', id);
    storage.set('uuidOtorgante', id);
  }
}

export function readGrantorParams(storage: StateStorage): GrantorParams | null {
  const stored = readJson(storage, 'dataOtorgante');
  return isGrantorParamList(stored) ? stored : null;
}

// A tiny external store so the header and the theme follow the parameters once the entry loads them.
let snapshot: GrantorParams | null | undefined;
const listeners = new Set<() => void>();

function getSnapshot(): GrantorParams | null {
  if (snapshot === undefined) snapshot = readGrantorParams(sessionState());
  return snapshot;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentGrantorParams(): GrantorParams | null {
  return getSnapshot();
}

/** Saves (or, with null, forgets) the grantor parameters and notifies the screens. */
export function setGrantorParams(params: GrantorParams | null): void {
  const storage = sessionState();
  if (params) storeGrantorParams(storage, params);
  else storage.remove('dataOtorgante');
  snapshot = params;
  for (const listener of listeners) listener();
}

export function useGrantorParams(): GrantorParams | null {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
