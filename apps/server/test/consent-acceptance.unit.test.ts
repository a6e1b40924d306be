import { describe, expect, it } from 'vitest';
import { consentAcceptanceOf } from '../src/features/events/consent-acceptance.js';

const sha = 'a'.repeat(64);
const now = new Date('2026-11-26T04:50:00.000Z');

describe('consent evidence from an acceptance audit event', () => {
  it('keeps the version and SHA-256 of the text shown, when, from where and with which browser', () => {
    const dato = JSON.stringify({ version: '1', sha256: sha, userAgent: 'Chromium' });
    expect(consentAcceptanceOf({ paso: 'clausula', tipo: 'Aceptación', dato }, { ip: '10.0.0.1', userAgent: 'header UA' }, now)).toEqual({
      consent: 'clausula',
      version: '1',
      sha256: sha,
      acceptedAt: '2026-11-26T04:50:00.000Z',
      ip: '10.0.0.1',
      userAgent: 'Chromium',
    });
    const noAgent = JSON.stringify({ version: '2', sha256: sha });
    expect(consentAcceptanceOf({ paso: 'autorizacion', tipo: 'Aceptación', dato: noAgent }, { userAgent: 'header UA' }, now)).toMatchObject({
      consent: 'autorizacion',
      userAgent: 'header UA',
    });
  });

  it('ignores other events and acceptances without a version and a SHA-256', () => {
    const dato = JSON.stringify({ version: '1', sha256: sha });
    expect(consentAcceptanceOf({ paso: 'clausula', tipo: 'Error', dato }, {}, now)).toBeNull();
    expect(consentAcceptanceOf({ paso: 'video_token', tipo: 'Aceptación', dato }, {}, now)).toBeNull();
    expect(consentAcceptanceOf({ paso: 'clausula', tipo: 'Aceptación', dato: 'not json' }, {}, now)).toBeNull();
    expect(consentAcceptanceOf({ paso: 'clausula', tipo: 'Aceptación', dato: JSON.stringify({ version: '1', sha256: 'short' }) }, {}, now)).toBeNull();
    expect(consentAcceptanceOf({ paso: 'clausula', tipo: 'Aceptación', dato: 'null' }, {}, now)).toBeNull();
  });
});
