import { errorTexts } from '@kyc/contracts';
import { describe, expect, it } from 'vitest';
import type { VideoTokenDecision } from '../src/domain/evidence-kinds.js';
import { decideLifecycleEvent } from '../src/features/events/lifecycle.js';
import { consistentSending, customId, ddmmyyyy, semaforo, tipoEnvio } from '../src/features/results/result-mail.js';
import { minFaceScoreParam, ruleList, scoreTransaction, type ScoreFacts, type ScoreSettings } from '../src/features/results/score.js';
import { backoffMs } from '../src/jobs/queue.js';
import { pdfSafe } from '../src/features/results/documents/pdf.js';
import { loadConfig } from '../src/config.js';
import { scoreSettings } from '../src/features/results/facts.js';

const now = new Date('2026-11-26T12:00:00Z');
const settings: ScoreSettings = { renapoEnabled: true, ineEnabled: true, minFaceScore: null, optional: new Set(['codigo_hablado']), strict: new Set() };

const face = (over: Partial<VideoTokenDecision> = {}): VideoTokenDecision => ({
  match: true,
  faceScore: 0.82,
  threshold: 0.6,
  liveness: { passed: true, spoof: false, signals: {} },
  spokenCode: { verified: null, engine: 'none', detail: 'no speech engine installed' },
  ...over,
});

function complete(over: Partial<ScoreFacts> = {}): ScoreFacts {
  return {
    front: { verdict: { kind: 'accepted' }, documentType: 'INE', ocrData: { curp: 'GODE561231HDFRRN09', vigencia: '2031' }, warnings: [] },
    back: { verdict: { kind: 'accepted' }, documentType: 'INE', ocrData: {}, mrz: { valid: true, checkDigits: { document: true } }, warnings: [] },
    renapo: { curp: 'GODE561231HDFRRN09', outcome: 'passed', checks: [], source: 'local' },
    ine: { outcome: 'passed', checks: [], source: 'local' },
    face: face(),
    proof: { outcome: 'passed', nameMatchesId: true, recent: true },
    locked: false,
    ...over,
  };
}

const ruleOf = (facts: ScoreFacts, rule: string, s = settings) => scoreTransaction(facts, s, now).rules.find((r) => r.rule === rule);

describe('score rules', () => {
  it('is GREEN when every rule passes, with one explained Field per rule', () => {
    const result = scoreTransaction(complete(), settings, now);
    expect(result.flag).toBe('GREEN');
    expect(result.Fields.map((f) => f.rule)).toEqual(
      expect.arrayContaining([
        'identificacion_frente',
        'identificacion_reverso',
        'mrz_digitos_verificadores',
        'vigencia',
        'curp_renapo',
        'ine_lista_nominal',
        'rostro_coincidencia',
        'prueba_de_vida',
        'comprobante_domicilio',
      ]),
    );
    expect(result.Fields.every((f) => f.detail.length > 0)).toBe(true);
    // The spoken code has no engine: not passed, but optional by default, so it does not lower the flag.
    expect(result.Fields.find((f) => f.rule === 'codigo_hablado')).toMatchObject({ passed: false });
  });

  it('is RED until decided: no evidence, or no face match yet', () => {
    expect(scoreTransaction({ locked: false }, settings, now).flag).toBe('RED');
    const noFace = scoreTransaction(complete({ face: undefined }), settings, now);
    expect(noFace.flag).toBe('RED');
    expect(noFace.Fields.find((f) => f.rule === 'rostro_coincidencia')).toMatchObject({ passed: false });
  });

  it('is RED on a hard failure: face mismatch, spoof, expired ID, failed CURP check, lock', () => {
    expect(scoreTransaction(complete({ face: face({ match: false, faceScore: 0.3 }) }), settings, now).flag).toBe('RED');
    expect(scoreTransaction(complete({ face: face({ liveness: { passed: false, spoof: true, signals: {} } }) }), settings, now).flag).toBe('RED');
    expect(scoreTransaction(complete({ front: { ...complete().front!, ocrData: { curp: 'X', vigencia: '2020' } } }), settings, now).flag).toBe('RED');
    expect(scoreTransaction(complete({ renapo: { curp: '', outcome: 'failed', checks: [{ rule: 'check_digit', passed: false, detail: 'x' }], source: 'local' } }), settings, now).flag).toBe('RED');
    expect(scoreTransaction(complete({ locked: true }), settings, now).flag).toBe('RED');
  });

  it('lowers to YELLOW for missing optional evidence and soft failures', () => {
    expect(scoreTransaction(complete({ proof: undefined }), settings, now).flag).toBe('YELLOW');
    expect(scoreTransaction(complete({ renapo: { curp: '', outcome: 'not_checked', checks: [], source: 'local' } }), settings, now).flag).toBe('YELLOW');
    expect(scoreTransaction(complete({ ine: undefined }), settings, now).flag).toBe('YELLOW');
    const badMrz = complete();
    badMrz.back = { ...badMrz.back!, mrz: { valid: false, checkDigits: { document: false } } };
    expect(ruleOf(badMrz, 'mrz_digitos_verificadores')).toMatchObject({ outcome: 'failed', effect: 'yellow' });
    expect(scoreTransaction(badMrz, settings, now).flag).toBe('YELLOW');
    const mismatch = complete();
    mismatch.back = { ...mismatch.back!, warnings: ['mrz_front_mismatch:curp'] };
    expect(ruleOf(mismatch, 'mrz_coincide_frente')?.detail).toContain('curp');
    expect(scoreTransaction(complete({ front: { ...complete().front!, verdict: { kind: 'tolerated', reason: 'Datos incompletos' } } }), settings, now).flag).toBe('YELLOW');
  });

  it('follows the grantor: optional and strict rule lists, minimum similarity, disabled checks', () => {
    expect(scoreTransaction(complete({ proof: undefined }), { ...settings, optional: new Set(['comprobante_domicilio', 'codigo_hablado']) }, now).flag).toBe('GREEN');
    expect(scoreTransaction(complete({ proof: undefined }), { ...settings, strict: new Set(['comprobante_domicilio']) }, now).flag).toBe('RED');
    // The face match can never be made optional.
    expect(scoreTransaction(complete({ face: undefined }), { ...settings, optional: new Set(['rostro_coincidencia', 'prueba_de_vida', 'codigo_hablado']) }, now).flag).toBe('RED');
    expect(scoreTransaction(complete(), { ...settings, minFaceScore: 0.9 }, now).flag).toBe('RED');
    expect(scoreTransaction(complete({ renapo: undefined, ine: undefined }), { ...settings, renapoEnabled: false, ineEnabled: false }, now).flag).toBe('GREEN');
    expect(scoreTransaction(complete({ face: face({ spokenCode: { verified: null, engine: 'none', detail: '' } }) }), { ...settings, optional: new Set() }, now).flag).toBe('YELLOW');
    expect(scoreTransaction(complete({ face: face({ spokenCode: { verified: false, engine: 'asr', detail: 'read 1234' } }) }), settings, now).flag).toBe('RED');
  });

  it('does not ask a passport for a back, and reads its MRZ on the data page', () => {
    const passport = complete({
      front: { verdict: { kind: 'accepted' }, documentType: 'PASAPORTE', ocrData: { curp: 'GODE561231HDFRRN09', vigencia: '01/01/2030' }, mrz: { valid: true }, warnings: [] },
      back: undefined,
      ine: undefined,
    });
    const result = scoreTransaction(passport, settings, now);
    expect(result.rules.find((r) => r.rule === 'identificacion_reverso')).toBeUndefined();
    expect(result.rules.find((r) => r.rule === 'mrz_digitos_verificadores')).toMatchObject({ outcome: 'passed' });
    expect(result.flag).toBe('GREEN');
  });

  it('parses the list and similarity parameters', () => {
    expect([...ruleList(' Vigencia, ,comprobante_domicilio ')]).toEqual(['vigencia', 'comprobante_domicilio']);
    expect(minFaceScoreParam('0.7')).toBe(0.7);
    expect(minFaceScoreParam('')).toBeNull();
    expect(minFaceScoreParam('1.5')).toBeNull();
    expect(minFaceScoreParam('abc')).toBeNull();
  });
});

describe('sending result (docs/flow.md §4) and custom id (docs/flow.md §3)', () => {
  it('sends COMPLETO for GREEN and SEMAFORO otherwise, with the semaphore lowercase', () => {
    expect(tipoEnvio('GREEN')).toBe('COMPLETO');
    expect(tipoEnvio('YELLOW')).toBe('SEMAFORO');
    expect(tipoEnvio('RED')).toBe('SEMAFORO');
    expect(semaforo('YELLOW')).toBe('yellow');
    expect(consistentSending('COMPLETO', 'green')).toBe(true);
    expect(consistentSending('COMPLETO', 'yellow')).toBe(false);
    expect(consistentSending('SEMAFORO', 'green')).toBe(false);
    expect(consistentSending('SEMAFORO', 'red')).toBe(true);
  });

  it('joins partner (spaces to _), short name, ddmmyyyy and the first segment of the user id', () => {
    const id = customId({ partner: 'Socio Uno MX', shortName: 'Ejemplo', date: new Date('2026-03-05T18:00:00Z'), uuidUser: '3f2a9c1d-1111-4222-8333-444455556666' });
    expect(id).toBe('Socio_Uno_MXEjemplo050320263f2a9c1d');
    // Mexico City date, not UTC: 02:00 UTC on the 6th is still the 5th there.
    expect(ddmmyyyy(new Date('2026-03-06T02:00:00Z'))).toBe('05032026');
  });
});

describe('lifecycle (docs/flow.md §4)', () => {
  const event = (status: string, step: string, description = '') => ({ step, event: JSON.stringify({ status, step, description }) });
  it('finishes on the finished event and refuses anything after it', () => {
    expect(decideLifecycleEvent({ finished: false }, event('OK', 'finished'), now)).toEqual({ kind: 'accept', finish: { status: 'OK' } });
    expect(decideLifecycleEvent({ finished: false }, event('FAIL', 'finished'), now)).toEqual({ kind: 'accept', finish: { status: 'FAIL' } });
    expect(decideLifecycleEvent({ finished: true }, event('OK', 'terminos'), now).kind).toBe('refuse');
  });
  it('locks for an hour after a failed finalisation by retries', () => {
    const decision = decideLifecycleEvent({ finished: false }, event('FAIL', 'video_token', errorTexts.processFailure), now);
    expect(decision).toEqual({ kind: 'accept', lockUntil: new Date(now.getTime() + 3_600_000).toISOString() });
    expect(decideLifecycleEvent({ finished: false }, event('INCOMPLETED', 'video_token', 'Cancelado'), now)).toEqual({ kind: 'accept' });
    expect(decideLifecycleEvent({ finished: false }, { step: 'x', event: 'not json' }, now)).toEqual({ kind: 'accept' });
  });
});

describe('helpers', () => {
  it('backs off exponentially up to an hour', () => {
    expect(backoffMs(1)).toBe(30_000);
    expect(backoffMs(2)).toBe(60_000);
    expect(backoffMs(20)).toBe(3_600_000);
  });
  it('keeps Spanish letters in PDFs and replaces what the standard font cannot encode', () => {
    expect(pdfSafe('Núñez “Zúñiga” — ok ✓')).toBe('Núñez "Zúñiga" - ok ?');
  });
});

describe('results configuration', () => {
  it('reads SMTP_URL, MAIL_FROM, RESULT_LINK_KEY and TSA_URL, refusing bad values', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const config = loadConfig({ SMTP_URL: 'smtps://u:p@mail.example:465', MAIL_FROM: 'Financiera <no-reply@financiera.example>', RESULT_LINK_KEY: key, TSA_URL: 'https://tsa.example/tsr' });
    expect(config).toMatchObject({ smtpUrl: 'smtps://u:p@mail.example:465', tsaUrl: 'https://tsa.example/tsr', mailFrom: 'Financiera <no-reply@financiera.example>' });
    expect(config.resultLinkKey?.length).toBe(32);
    expect(loadConfig({}).smtpUrl).toBeUndefined();
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ RESULT_LINK_KEY: 'short' })).toThrow(/RESULT_LINK_KEY/);
    expect(() => loadConfig({ TSA_URL: 'ftp://tsa' })).toThrow(/TSA_URL/);
  });
});

describe('score settings from the grantor parameters', () => {
  const settingsFor = (values: Record<string, string>) => scoreSettings(Object.entries(values).map(([idCampo, valor]) => ({ idCampo, valor })));
  const proofEffect = (values: Record<string, string>, facts: ScoreFacts) => scoreTransaction(facts, settingsFor(values)).rules.find((r) => r.rule === 'comprobante_domicilio')?.effect;
  it('a journey without a proof of address is not lowered when the grantor does not ask for one', () => {
    expect(settingsFor({}).proofRequired).toBe(false);
    expect(proofEffect({}, {} as ScoreFacts)).toBe('none');
    expect(proofEffect({ REQ_COMPROBANTE_DOMICILIO: 'true' }, {} as ScoreFacts)).toBe('yellow');
  });
  it('a proof captured but unreadable still lowers the flag', () => {
    const facts = { proof: { outcome: 'not_checked', nameMatchesId: null, recent: null } } as unknown as ScoreFacts;
    expect(proofEffect({}, facts)).toBe('yellow');
  });
});
