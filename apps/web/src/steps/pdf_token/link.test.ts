import { describe, expect, it } from 'vitest';
import { createStateStorage } from '../../session/storage';
import { beginLinkJourney, expiryLabel, isLinkExpired, linkBrowserSupport, longDateTime, parseLinkQuery } from './link';

const uuid = '7d3c1a52-1111-4a4a-9b9b-000000000001';
const trx = '5f2e9c10-2222-4b4b-8c8c-000000000002';

describe('result link (docs/flow.md §2 /pdf_token, §4 Result link)', () => {
  it('reads uuid, idOtorgante, fecha (epoch ms) and uuidTrx', () => {
    expect(parseLinkQuery(`?uuid=${uuid.toUpperCase()}&idOtorgante=oto-1&fecha=1800000000000&uuidTrx=${trx}`)).toEqual({
      uuid,
      idOtorgante: 'oto-1',
      fecha: '1800000000000',
      uuidTrx: trx,
      token: null,
    });
    expect(parseLinkQuery(`?uuid=${uuid}&idOtorgante=oto-1&fecha=1800000000000`)?.uuidTrx).toBeNull();
  });

  it('refuses a link without a usable uuid, grantor or date', () => {
    expect(parseLinkQuery(`?uuid=nope&idOtorgante=oto-1&fecha=1`)).toBeNull();
    expect(parseLinkQuery(`?uuid=${uuid}&fecha=1`)).toBeNull();
    expect(parseLinkQuery(`?uuid=${uuid}&idOtorgante=oto-1&fecha=mañana`)).toBeNull();
    expect(parseLinkQuery(`?uuid=${uuid}&idOtorgante=oto-1`)).toBeNull();
  });

  it('"expires when current time is past fecha"', () => {
    expect(isLinkExpired('1000', 1001)).toBe(true);
    expect(isLinkExpired('1000', 1000)).toBe(false);
    expect(isLinkExpired('1000', 999)).toBe(false);
    expect(isLinkExpired(null, 1001)).toBe(false);
  });

  it('shows the expiry "in long Mexican Spanish format"', () => {
    // 2026-11-26T21:30:00Z is 15:30 in Mexico City (UTC-6, no daylight saving since 2022).
    const epoch = Date.UTC(2026, 10, 26, 21, 30);
    expect(longDateTime(epoch, 'America/Mexico_City')).toBe('jueves, 26 de noviembre de 2026, 15:30');
    expect(expiryLabel(String(epoch), 'America/Mexico_City')).toContain('26 de noviembre de 2026');
    expect(expiryLabel(null)).toBeNull();
  });

  it('"Browser-incompatible panels suggest Chrome or Edge (Safari on iOS)"', () => {
    const desktop = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130', ios: false, hasGetUserMedia: true, hasMediaRecorder: true };
    expect(linkBrowserSupport(desktop)).toBe('ok');
    expect(linkBrowserSupport({ ...desktop, hasMediaRecorder: false })).toBe('useChromeOrEdge');
    const iphone = { userAgent: 'Mozilla/5.0 (iPhone) Version/17.0 Mobile Safari/604.1', ios: true, hasGetUserMedia: true, hasMediaRecorder: true };
    expect(linkBrowserSupport(iphone)).toBe('ok');
    expect(linkBrowserSupport({ ...iphone, userAgent: 'Mozilla/5.0 (iPhone) CriOS/120 Mobile' })).toBe('useSafari');
    expect(linkBrowserSupport({ ...iphone, hasMediaRecorder: false })).toBe('useSafari');
  });
});

describe('the link credential (project: token, sent as X-Consumer-Custom-ID)', () => {
  const credential = 'eyJhbGciOiJIUzI1NiJ9.eyJqdGkiOiJ4In0.c2lnbmF0dXJl';

  it('reads a signed token from the query and ignores anything else', () => {
    const base = `?uuid=${uuid}&idOtorgante=oto-1&fecha=1800000000000&uuidTrx=${trx}`;
    expect(parseLinkQuery(`${base}&token=${credential}`)?.token).toBe(credential);
    expect(parseLinkQuery(base)?.token).toBeNull();
    expect(parseLinkQuery(`${base}&token=not a token`)?.token).toBeNull();
  });

  it('stores it, and keeps it when the same link comes back without it (cancelled video)', () => {
    const storage = createStateStorage(null);
    beginLinkJourney({ uuid, idOtorgante: 'oto-1', fecha: '1', uuidTrx: trx, token: credential }, storage, () => 'never');
    expect(storage.get('linkToken')).toBe(credential);
    beginLinkJourney({ uuid, idOtorgante: 'oto-1', fecha: '1', uuidTrx: null, token: null }, storage, () => 'never');
    expect(storage.get('linkToken')).toBe(credential);
    beginLinkJourney({ uuid: '11111111-2222-4333-8444-555555555555', idOtorgante: 'oto-1', fecha: '1', uuidTrx: null, token: null }, storage, () => 'fresh');
    expect(storage.get('linkToken')).toBeNull();
  });
});

describe('"clears local storage and stores them"', () => {
  it('drops the previous journey, keeps the lock, stores the link', () => {
    const storage = createStateStorage(null);
    storage.set('ocrFront', '{}');
    storage.set('apikeyOtorgante', 'old');
    storage.set('bloqueo', 'true');
    storage.set('time', '1');
    beginLinkJourney({ uuid, idOtorgante: 'oto-1', fecha: '1800000000000', uuidTrx: trx, token: null }, storage, () => 'never');
    expect(storage.get('ocrFront')).toBeNull();
    expect(storage.get('apikeyOtorgante')).toBeNull();
    expect(storage.get('bloqueo')).toBe('true');
    expect([storage.get('uuidUser'), storage.get('uuidTrx'), storage.get('idOtorgante'), storage.get('fechavigencia')]).toEqual([uuid, trx, 'oto-1', '1800000000000']);
    expect(storage.get('completado')).toBe('false');
  });

  it('the same link and transaction keep their face-video attempts (restart after failures, cancel); another drops them', () => {
    const storage = createStateStorage(null);
    const link = { uuid, idOtorgante: 'oto-1', fecha: '1800000000000', uuidTrx: trx, token: null };
    beginLinkJourney(link, storage, () => 'never');
    storage.set('intentsData', JSON.stringify({ video_token: 3 }));
    beginLinkJourney(link, storage, () => 'never');
    expect(storage.get('intentsData')).toBe(JSON.stringify({ video_token: 3 }));
    // Back from a cancel (no uuidTrx in the query): the same transaction.
    beginLinkJourney({ ...link, uuidTrx: null }, storage, () => 'never');
    expect(storage.get('intentsData')).toBe(JSON.stringify({ video_token: 3 }));
    beginLinkJourney({ ...link, uuidTrx: '5f2e9c10-2222-4b4b-8c8c-000000000003' }, storage, () => 'never');
    expect(storage.get('intentsData')).toBeNull();
    storage.set('intentsData', JSON.stringify({ video_token: 3 }));
    beginLinkJourney({ ...link, uuid: '11111111-2222-4333-8444-555555555555', uuidTrx: null }, storage, () => 'fresh');
    expect(storage.get('intentsData')).toBeNull();
  });

  it('a link without uuidTrx keeps the one of the same link, else gets a new one', () => {
    const storage = createStateStorage(null);
    beginLinkJourney({ uuid, idOtorgante: 'oto-1', fecha: '1', uuidTrx: trx, token: null }, storage, () => 'never');
    beginLinkJourney({ uuid, idOtorgante: 'oto-1', fecha: '1', uuidTrx: null, token: null }, storage, () => 'never');
    expect(storage.get('uuidTrx')).toBe(trx);
    const other = '11111111-2222-4333-8444-555555555555';
    beginLinkJourney({ uuid: other, idOtorgante: 'oto-1', fecha: '1', uuidTrx: null, token: null }, storage, () => 'fresh');
    expect(storage.get('uuidTrx')).toBe('fresh');
  });
});
