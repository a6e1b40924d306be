import { uuid } from '@kyc/contracts';
import { describe, expect, it } from 'vitest';
import { demoParams } from '../src/seed.js';
import { uuidv7 } from '../src/store/ids.js';

describe('uuidv7', () => {
  it('is a valid uuid, ordered by creation even within one millisecond', () => {
    const now = Date.now();
    const ids = Array.from({ length: 5000 }, () => uuidv7(now));
    for (const id of ids.slice(0, 10)) expect(uuid.safeParse(id).success).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]?.[14]).toBe('7');
  });
});

describe('demo grantor', () => {
  it('ships a logo small enough for a parameter value and only same-origin-safe images', () => {
    expect(demoParams.LOGO_OTORGANTE?.length).toBeLessThan(20_000);
    const svg = Buffer.from(demoParams.LOGO_OTORGANTE?.split(',')[1] ?? '', 'base64').toString('utf8');
    expect(svg).toContain('>FD<');
    expect(svg).toContain('Financiera');
    expect(svg).not.toMatch(/href|<script/i);
  });
});
