import { describe, expect, it } from 'vitest';
import { stateKeys } from '@kyc/contracts/state';
import { beginJourney, previousJourneyKeys } from './start';
import { createStateStorage, type StateStorage } from './storage';
import { storeGrantorParams, readGrantorParams } from './grantor';

const fixedIds = ['aaaaaaaa-0000-4000-8000-000000000001', 'bbbbbbbb-0000-4000-8000-000000000002'];
function ids() {
  let i = 0;
  return () => fixedIds[i++] ?? 'cccccccc-0000-4000-8000-000000000003';
}

function filledStorage(): StateStorage {
  const storage = createStateStorage(null);
  for (const key of stateKeys) storage.set(key, `old-${key}`);
  return storage;
}

describe('START state (docs/flow.md §4)', () => {
  it('"reads cliente (uuidUser), uuidTrx and the scheme query parameters"', () => {
    const storage = createStateStorage(null);
    const cliente = '11111111-2222-4333-8444-555555555555';
    const trx = '66666666-7777-4888-9999-AAAAAAAAAAAA';
    const started = beginJourney({ apikey: 'k1', search: `?cliente=${cliente}&uuidTrx=${trx}&referer=https://partner.example/x&jwt=abc&schema=com.app` }, storage, ids());
    expect(started).toEqual({ uuidUser: cliente, uuidTrx: trx.toLowerCase(), apikey: 'k1' });
    expect(storage.get('uuidUser')).toBe(cliente);
    expect(storage.get('externalReference')).toBe('https://partner.example/x');
    expect(storage.get('externalJWT')).toBe('abc');
    expect(storage.get('package')).toBe('com.app');
    expect(storage.get('apikeyOtorgante')).toBe('k1');
  });

  it('"generates random identifiers when absent" (and when they are not uuids)', () => {
    const storage = createStateStorage(null);
    expect(beginJourney({ apikey: 'k', search: '' }, storage, ids())).toMatchObject({ uuidUser: fixedIds[0], uuidTrx: fixedIds[1] });
    expect(beginJourney({ apikey: 'k', search: '?cliente=not-a-uuid' }, storage, ids()).uuidUser).toBe(fixedIds[0]);
  });

  it('"clears many stored keys; sets completado to false" — the lockout survives', () => {
    const storage = filledStorage();
    beginJourney({ apikey: 'k', search: '' }, storage, ids());
    expect(storage.get('completado')).toBe('false');
    for (const key of previousJourneyKeys) {
      if (['uuidUser', 'uuidTrx', 'apikeyOtorgante', 'completado'].includes(key)) continue;
      expect(storage.get(key), key).toBeNull();
    }
    expect(storage.get('bloqueo')).toBe('old-bloqueo');
    expect(storage.get('time')).toBe('old-time');
  });

  it('stores the grantor parameters as dataOtorgante, and ID_OTORGANTE as idOtorgante and uuidOtorgante', () => {
    const storage = createStateStorage(null);
    const params = [
      { idCampo: 'ID_OTORGANTE', valor: 'oto-42' },
      { idCampo: 'NOMBRE_CORTO', valor: 'Financiera' },
    ];
    storeGrantorParams(storage, params);
    expect(readGrantorParams(storage)).toEqual(params);
    expect(storage.get('idOtorgante')).toBe('oto-42');
    expect(storage.get('uuidOtorgante')).toBe('oto-42');
    storage.set('dataOtorgante', '{"not":"a list"}');
    expect(readGrantorParams(storage)).toBeNull();
  });
});

describe('state storage', () => {
  it('keeps working in memory when the browser refuses storage', () => {
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    } as unknown as Storage;
    const storage = createStateStorage(throwing);
    storage.set('uuidUser', 'x');
    expect(storage.get('uuidUser')).toBe('x');
    storage.remove('uuidUser');
    expect(storage.get('uuidUser')).toBeNull();
  });
});
