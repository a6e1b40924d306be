import { describe, expect, it } from 'vitest';
import { readIntents, readOcr, storeBackRead, storeFrontRead, writeIntents, ocrText } from './idCapture';
import { createStateStorage } from './storage';

describe('ID reads in the browser state (docs/flow.md §3 ocrFront, ocrBack, ocrFrontOk, ocrBackOk)', () => {
  it('stores the front (with its data check) and drops an older back', () => {
    const storage = createStateStorage(null);
    storeBackRead(storage, { cicMRZ: '111' });
    storeFrontRead(storage, { nombreCompleto: 'ANA', identificacionElectoral: true }, false);
    expect(readOcr(storage, 'ocrFront')).toEqual({ nombreCompleto: 'ANA', identificacionElectoral: true });
    expect(storage.get('ocrFrontOk')).toBe('false');
    expect(readOcr(storage, 'ocrBack')).toBeNull();
    expect(storage.get('ocrBackOk')).toBeNull();
    storeBackRead(storage, { cicMRZ: '222' });
    expect(readOcr(storage, 'ocrBack')).toEqual({ cicMRZ: '222' });
    expect(storage.get('ocrBackOk')).toBe('true');
  });

  it('ignores stored values that are not OCR records', () => {
    const storage = createStateStorage(null);
    storage.set('ocrFront', '[1,2]');
    expect(readOcr(storage, 'ocrFront')).toBeNull();
    storage.set('ocrFront', '{"a":{"b":1}}');
    expect(readOcr(storage, 'ocrFront')).toBeNull();
  });

  it('reads fields as text', () => {
    expect(ocrText({ a: 'x', b: 12, c: true, d: null }, 'b')).toBe('12');
    expect(ocrText({ c: true }, 'c')).toBe('');
    expect(ocrText(null, 'a')).toBe('');
  });
});

describe('intentsData (display mirror of the attempts)', () => {
  it("defaults to nothing counted and keeps other steps' keys", () => {
    const storage = createStateStorage(null);
    expect(readIntents(storage)).toEqual({ id_frontal: 0, id_reverso: 0, id_frontal_tolerado: false });
    storage.set('intentsData', JSON.stringify({ video_token: 2, id_frontal: 'x' }));
    expect(readIntents(storage).id_frontal).toBe(0);
    writeIntents(storage, { id_frontal: 1, id_reverso: 2, id_frontal_tolerado: true });
    expect(JSON.parse(storage.get('intentsData') ?? '')).toEqual({ video_token: 2, id_frontal: 1, id_reverso: 2, id_frontal_tolerado: true });
    expect(readIntents(storage)).toEqual({ id_frontal: 1, id_reverso: 2, id_frontal_tolerado: true });
  });
});
