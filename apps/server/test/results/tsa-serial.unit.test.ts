import * as asn1js from 'asn1js';
import { describe, expect, it } from 'vitest';
import { positiveSerial } from '../../src/features/results/local-tsa.js';

describe('local time-stamp serial numbers', () => {
  it('encode as minimal positive DER integers (a leading 0x00 before a byte under 0x80 is illegal padding)', () => {
    for (let i = 0; i < 5000; i += 1) {
      const serial = positiveSerial(16);
      expect(serial[0]! & 0x80).toBe(0);
      expect(serial[0]).not.toBe(0);
      const der = new asn1js.Integer({ valueHex: new Uint8Array(serial).buffer }).toBER();
      const decoded = asn1js.fromBER(der);
      expect(decoded.offset).not.toBe(-1);
      // Header (tag, length) then exactly the serial's bytes: no padding byte was needed.
      expect(new Uint8Array(der).length).toBe(2 + 16);
    }
  });
});
