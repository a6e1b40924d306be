import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { idImageBucket, ocrDataOf, ocrForm } from './ocr';

describe('OCR call (docs/flow.md §7 "ocr (v2)")', () => {
  it('multipart fields: uuidUser, ine (image), side, bucket, originOS, SERVICE_ROTATE_IMAGE', async () => {
    const image = new Blob([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], { type: 'image/png' });
    const form = ocrForm({ uuidUser: 'aaaaaaaa-0000-4000-8000-000000000001', side: 'back', image, originOS: 'android' });
    expect([...form.keys()].sort()).toEqual(['SERVICE_ROTATE_IMAGE', 'bucket', 'ine', 'originOS', 'side', 'uuidUser']);
    expect(form.get('side')).toBe('back');
    expect(form.get('uuidUser')).toBe('aaaaaaaa-0000-4000-8000-000000000001');
    expect(form.get('bucket')).toBe(idImageBucket);
    expect(form.get('originOS')).toBe('android');
    const file = form.get('ine') as File;
    expect(file.name).toBe('back.png');
    expect(file.type).toBe('image/png');
    expect(file.size).toBe(8);
  });

  it('reads payload.ocrData and refuses anything else', () => {
    expect(ocrDataOf({ status: 200, payload: { ocrData: { nombreCompleto: 'X', identificacionElectoral: true, seccion: 1234, curp: null } } })).toEqual({
      nombreCompleto: 'X',
      identificacionElectoral: true,
      seccion: 1234,
      curp: null,
    });
    for (const bad of [null, { status: 200 }, { status: 200, payload: { ocrData: [] } }, { status: 200, payload: { ocrData: { x: { y: 1 } } } }]) {
      expect(() => ocrDataOf(bad)).toThrow(ApiError);
    }
  });
});
