import { describe, expect, it } from 'vitest';
import { compactTimestamp, isProofOfAddressFolder, proofOfAddressKey } from '../../src/domain/evidence.js';
import { demoId } from '../support/fixtures.js';

const uuidTrx = '0190a6e4-0000-7000-8000-000000000001';
const uuidUser = '0190a6e4-0000-7000-8000-0000000000aa';

describe('proof-of-address folder and key', () => {
  it('match the spec folder "grantor id/user id/domicilio"', () => {
    expect(isProofOfAddressFolder(`${demoId}/${uuidUser}/domicilio`, demoId, uuidUser)).toBe(true);
    expect(isProofOfAddressFolder(`/${demoId.toUpperCase()}/${uuidUser}/domicilio/`, demoId, uuidUser)).toBe(true);
    expect(isProofOfAddressFolder(`${demoId}/${uuidUser}`, demoId, uuidUser)).toBe(false);
    expect(isProofOfAddressFolder(`${demoId}/${uuidUser}/domicilio/../x`, demoId, uuidUser)).toBe(false);
  });

  it('name the blob after the transaction and the time', () => {
    const at = new Date('2025-03-04T05:06:07.089Z');
    expect(compactTimestamp(at)).toBe('20250304T050607089Z');
    expect(proofOfAddressKey({ grantorId: demoId, uuidUser, uuidTrx, at, suffix: 'ab12cd34', extension: 'pdf' })).toBe(`${demoId}/${uuidUser}/domicilio/${uuidTrx}-20250304T050607089Z-ab12cd34.pdf`);
  });
});
