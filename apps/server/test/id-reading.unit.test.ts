import { describe, expect, it } from 'vitest';
import { judgeRead } from '../src/features/id-capture/id-reading.js';
import type { OcrResult } from '../src/engines/ocr/types.js';

const geometry = { cardFound: true, rotationDeg: 0, cropped: true };
const zone = (valid: boolean): OcrResult['mrz'] => ({ format: 'TD1', lines: ['I<PER...', '...', '...'], valid, checkDigits: {}, fields: {} });
const read = (over: Partial<OcrResult>): OcrResult => ({
  documentType: 'DNI_PERU',
  side: 'back',
  ocrData: {},
  geometry,
  warnings: [],
  timingsMs: {},
  ...over,
});

describe('judgeRead and the MRZ', () => {
  it('accepts a back whose zone validates and refuses one whose check digits fail', () => {
    expect(judgeRead(read({ mrz: zone(true) }), { side: 'back', toleranceUsed: false })).toEqual({ kind: 'accepted' });
    expect(judgeRead(read({ mrz: zone(false) }), { side: 'back', toleranceUsed: false })).toMatchObject({ kind: 'rejected', reason: 'mrz_invalid' });
    expect(judgeRead(read({}), { side: 'back', toleranceUsed: false })).toMatchObject({ kind: 'rejected', reason: 'no_mrz' });
  });

  it('refuses a passport page whose zone fails, even with its printed name and number read', () => {
    const page = read({
      documentType: 'PASAPORTE',
      side: 'front',
      mrz: { ...zone(false)!, format: 'TD3' },
      ocrData: { nombreCompleto: 'ANNA MARIA ERIKSSON', curp: 'ERXA740812MNEXXX01' },
    });
    expect(judgeRead(page, { side: 'front', toleranceUsed: false })).toMatchObject({ kind: 'rejected', reason: 'mrz_invalid' });
    expect(judgeRead({ ...page, mrz: { ...page.mrz!, valid: true } }, { side: 'front', toleranceUsed: false })).toEqual({ kind: 'accepted' });
  });

  it('recognises a visa and refuses it as not accepted', () => {
    const visa = read({ documentType: 'VISA', side: 'front', mrz: { ...zone(true)!, format: 'MRVA' } });
    expect(judgeRead(visa, { side: 'front', toleranceUsed: false })).toMatchObject({ kind: 'rejected', reason: 'not_accepted' });
  });
});
