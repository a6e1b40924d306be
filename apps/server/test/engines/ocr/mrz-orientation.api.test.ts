// MRZs of every ICAO format read by the real engine from generated documents, upright and turned by every
// quarter turn (a portrait photo is not assumed to lie one way).
import { buildMrv, buildTd1, buildTd2, buildTd3, renderMrzDocumentPng, type MrzDocumentFormat } from '@kyc/fixtures';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOcrEngine } from '../../../src/engines/ocr/engine.js';
import type { OcrEngine } from '../../../src/engines/ocr/types.js';

const person = {
  issuer: 'UTO',
  surnames: ['ERIKSSON'],
  givenNames: 'ANNA MARIA',
  nationality: 'UTO',
  birthDate: { y: 1974, m: 8, d: 12 },
  sex: 'F' as const,
  expiryDate: { y: 2031, m: 4, d: 15 },
};
const TD3 = buildTd3({ ...person, documentCode: 'P<', documentNumber: 'L898902C3', personalNumber: '' });
const TD1 = buildTd1({ ...person, documentCode: 'I<', documentNumber: 'D23145890', optional1: '', optional2: '' });
const TD2 = buildTd2({ ...person, documentCode: 'I<', documentNumber: 'D23145890', optional: '' });
const MRVB = buildMrv('MRVB', { ...person, documentCode: 'V<', documentNumber: 'L8988901C', optional: '' });
const MRVA = buildMrv('MRVA', { ...person, documentCode: 'V<', documentNumber: 'L8988901C', optional: '' });

/** The document photographed on a dark table, turned `quarterTurns` clockwise. */
async function photo(format: MrzDocumentFormat, lines: readonly string[], quarterTurns: number): Promise<Buffer> {
  const png = await renderMrzDocumentPng(format, lines, format.startsWith('MRV') ? 'VISADO / VISA' : 'MUESTRA');
  return sharp(png)
    .resize({ width: 1400 })
    .extend({ top: 120, bottom: 120, left: 120, right: 120, background: '#2b2b2e' })
    .rotate(90 * quarterTurns)
    .jpeg({ quality: 88 })
    .toBuffer();
}

/**
 * The page as a soft, low-resolution scan under uneven light (as the infrared page of the real set): 916 px wide,
 * blurred, its print faded to 70 % and its background shaded from the right.
 */
async function softScan(lines: readonly string[]): Promise<Buffer> {
  const png = await renderMrzDocumentPng('TD3', lines, 'MUSTER');
  const { data, info } = await sharp(png).resize({ width: 916 }).greyscale().blur(2).raw().toBuffer({ resolveWithObject: true });
  const out = Buffer.alloc(data.length);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = y * info.width + x;
      const light = 0.7 + 0.3 * (x / info.width) - 0.15 * (y / info.height);
      out[i] = Math.max(0, Math.min(255, Math.round((255 - (255 - data[i]!) * 0.7) * light)));
    }
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
}

let engine: OcrEngine;
beforeAll(async () => {
  engine = await createOcrEngine({ now: () => new Date('2026-11-26T12:00:00Z') });
}, 60_000);
afterAll(async () => engine?.close());

describe('MRZ in any orientation (generated ICAO documents)', () => {
  it.each([0, 1, 2, 3])(
    'reads a TD3 passport page turned %i quarter turns',
    async (turns) => {
      const result = await engine.read({ image: await photo('TD3', TD3, turns), side: 'front', passportHint: true });
      expect(result.mrz?.lines).toEqual(TD3);
      expect(result.mrz?.valid).toBe(true);
      expect(result.documentType).toBe('PASAPORTE');
      expect(result.mrz?.fields.surnames).toMatchObject({ value: 'ERIKSSON' });
      expect(result.mrz?.fields.documentNumber?.confidence).toBeGreaterThan(0.9);
      // The printed names come from the zone where the page's boxes read something else (never label words).
      expect(result.ocrData.apellidoPaterno).toBe('ERIKSSON');
      expect(result.ocrData.nombres).toBe('ANNA MARIA');
    },
    60_000,
  );

  it.each([1, 3])(
    'reads a TD1 card photographed upright in a portrait frame (%i quarter turns)',
    async (turns) => {
      const result = await engine.read({ image: await photo('TD1', TD1, turns), side: 'back' });
      expect(result.mrz?.lines).toEqual(TD1);
      expect(result.mrz?.valid).toBe(true);
    },
    60_000,
  );

  it('reads a TD2 card (2 x 36)', async () => {
    const result = await engine.read({ image: await photo('TD2', TD2, 0), side: 'back' });
    expect(result.mrz).toMatchObject({ format: 'TD2', lines: TD2, valid: true });
  }, 60_000);

  it('recognises the MRV-A and MRV-B visas as visas, read in full', async () => {
    for (const [format, lines] of [
      ['MRVB', MRVB],
      ['MRVA', MRVA],
    ] as const) {
      const result = await engine.read({ image: await photo(format, lines, 2), side: 'front' });
      expect(result.mrz, format).toMatchObject({ format, lines, valid: true });
      expect(result.documentType).toBe('VISA');
      expect(result.warnings).toContain('document_not_accepted');
      expect(result.mrz?.fields.expiryDate?.value).toBe('310415');
    }
  }, 90_000);

  it('reports a zone whose check digit fails as invalid, as printed', async () => {
    const tampered = [TD1[0], `${TD1[1].slice(0, 6)}${(Number(TD1[1][6]) + 1) % 10}${TD1[1].slice(7)}`, TD1[2]];
    const result = await engine.read({ image: await photo('TD1', tampered, 0), side: 'back' });
    expect(result.mrz?.lines).toEqual(tampered);
    expect(result.mrz?.valid).toBe(false);
    expect(result.mrz?.checkDigits).toMatchObject({ birthDate: false, documentNumber: true });
  }, 60_000);

  it('reads a soft, dim page whose every reading misses a character: the check digits choose between the engines', async () => {
    const lines = buildTd3({ ...person, issuer: 'D<<', nationality: 'D<<', surnames: ['MUSTERMANN'], givenNames: 'ERIKA', documentCode: 'P<', documentNumber: 'C01YPTNHM', personalNumber: '' });
    const result = await engine.read({ image: await softScan(lines), side: 'front', passportHint: true });
    expect(result.mrz).toMatchObject({ lines, valid: true });
    expect(result.mrz?.corrections?.length).toBeGreaterThan(0);
    expect(result.warnings).toContain('mrz_corrected_by_check_digits');
  }, 60_000);
});
