import { errorTexts, faceMessages } from '@kyc/contracts';
import { describe, expect, it } from 'vitest';
import { codeState, issueCode, CODE_LIFETIME_MS } from '../../src/features/face-video/codes.js';
import type { FrameMeasures } from '../../src/features/face-video/frame-measures.js';
import { locksAfter } from '../../src/domain/attempts.js';
import { attemptEffect, failureRefusal, recoverableFaceMessages, type VideoTokenOutcome } from '../../src/features/face-video/outcome.js';
import { refusalBody } from '../../src/http/reasons.js';

/** The error body a failed outcome is answered with (the outcome's reason through the HTTP reasons table). */
const failureReply = (outcome: Exclude<VideoTokenOutcome, { kind: 'match' }>) => refusalBody(failureRefusal(outcome));
import { judgeQuality } from '../../src/features/face-video/quality.js';
import { videoOutcome, type OutcomeInputs } from '../../src/features/face-video/analyse.js';

describe('face-video outcomes (docs/flow.md §8)', () => {
  it('does not count the seven recoverable capture messages', () => {
    expect(recoverableFaceMessages.size).toBe(7);
    for (const message of recoverableFaceMessages) expect(attemptEffect({ kind: 'capture_problem', message, detail: '' })).toBe('none');
    expect(recoverableFaceMessages.has(faceMessages.phrase)).toBe(false);
  });

  it('counts a no-match and an unread phrase, and uses every attempt on a spoof', () => {
    expect(attemptEffect({ kind: 'no_match', detail: '' })).toBe('count');
    expect(attemptEffect({ kind: 'not_live', detail: '' })).toBe('count');
    expect(attemptEffect({ kind: 'spoof', detail: '' })).toBe('exhaust');
    expect(attemptEffect({ kind: 'match' })).toBe('none');
  });

  it('exhausts the attempts at the limit', () => {
    const lockAfter = (count: number, outcome: Parameters<typeof attemptEffect>[0]) => locksAfter(attemptEffect(outcome), count, 3);
    expect(lockAfter(1, { kind: 'no_match', detail: '' })).toBe(false);
    expect(lockAfter(3, { kind: 'no_match', detail: '' })).toBe(true);
    expect(lockAfter(1, { kind: 'spoof', detail: '' })).toBe(true);
    // A capture problem never locks, even with the counter at the limit from elsewhere.
    expect(lockAfter(3, { kind: 'capture_problem', message: faceMessages.blurry, detail: '' })).toBe(false);
  });

  it('answers with the spec texts', () => {
    expect(failureReply({ kind: 'no_match', detail: '' })).toEqual({ status: 400, message: errorTexts.noMatch, message_client: errorTexts.noMatchClient });
    expect(failureReply({ kind: 'spoof', detail: '' })).toMatchObject({ status: 404, message: 'Spoof detected' });
    expect(failureReply({ kind: 'capture_problem', message: faceMessages.blurry, detail: '' })).toMatchObject({ status: 400, message_client: 'Imagen borrosa' });
    expect(failureReply({ kind: 'not_live', detail: '' }).message_client).toBe(faceMessages.phrase);
  });
});

describe('the spoken code in the decision', () => {
  const live: OutcomeInputs = {
    quality: null,
    holderFound: true,
    verdict: { kind: 'live' },
    faceScore: 0.9,
    threshold: 0.75,
    spoken: { verified: null, engine: 'none', detail: 'no model' },
  };

  it('a recogniser that ran and did not hear the code: the phrase failure, one attempt counted', () => {
    const outcome = videoOutcome({ ...live, spoken: { verified: false, engine: 'sherpa-onnx whisper tiny', detail: 'heard "cuatro siete dos ocho" (digits: 4728)', heard: '4728' } });
    expect(outcome).toEqual({ kind: 'not_live', detail: 'the spoken code was not recognised: heard "cuatro siete dos ocho" (digits: 4728)' });
    if (outcome.kind === 'match') return;
    expect(failureReply(outcome)).toEqual({ status: 400, message: faceMessages.phrase, message_client: faceMessages.phrase });
    expect(attemptEffect(outcome)).toBe('count');
  });

  it('a recogniser that heard the code, or none that could run: the liveness timing decides', () => {
    expect(videoOutcome({ ...live, spoken: { verified: true, engine: 'sherpa-onnx whisper tiny', detail: '', heard: '4729' } })).toEqual({ kind: 'match' });
    expect(videoOutcome(live)).toEqual({ kind: 'match' });
    expect(videoOutcome({ ...live, verdict: { kind: 'not_shown', reason: 'no speech was heard while the digits were shown' } })).toMatchObject({ kind: 'not_live' });
  });

  it('a spoof, a no-match or a capture problem comes first, whatever was heard', () => {
    const wrong = { verified: false, engine: 'asr', detail: 'x' };
    expect(videoOutcome({ ...live, spoken: wrong, verdict: { kind: 'spoof', reason: 'frozen' } }).kind).toBe('spoof');
    expect(videoOutcome({ ...live, spoken: wrong, faceScore: 0.5 }).kind).toBe('no_match');
    expect(videoOutcome({ ...live, spoken: wrong, quality: { message: faceMessages.blurry, detail: 'blur' } }).kind).toBe('capture_problem');
  });
});

describe('capture quality', () => {
  const frame = (face: Partial<NonNullable<FrameMeasures['face']>> | null, faces = 1, frameLuma = 120): FrameMeasures => ({
    timeMs: 0,
    faces,
    frameLuma,
    ...(face ? { face: { luma: 130, surroundLuma: 140, clipped: 0, sharpness: 900, mouthOpening: 0.15, eyeOpening: 0.35, noseX: 0, noseY: 0, size: 0.4, yaw: 0, pitch: 0, roll: 0, ...face } } : {}),
  });
  const many = (f: FrameMeasures) => Array.from({ length: 20 }, () => f);

  it('maps each problem to its message', () => {
    expect(judgeQuality(many(frame({})))).toBeNull();
    expect(judgeQuality(many(frame(null, 0)))?.message).toBe(faceMessages.noFace);
    expect(judgeQuality(many(frame(null, 0, 20)))?.message).toBe(faceMessages.lowLight);
    expect(judgeQuality(many(frame(null, 2)))?.message).toBe(faceMessages.multipleFaces);
    expect(judgeQuality(many(frame({ luma: 30, surroundLuma: 35 })))?.message).toBe(faceMessages.lowLight);
    expect(judgeQuality(many(frame({ luma: 60, surroundLuma: 220 })))?.message).toBe(faceMessages.badLight);
    expect(judgeQuality(many(frame({ clipped: 0.5 })))?.message).toBe(faceMessages.badLight);
    expect(judgeQuality(many(frame({ sharpness: 3 })))?.message).toBe(faceMessages.blurry);
    expect(judgeQuality([])?.message).toBe(faceMessages.noFace);
  });
});

describe('one-time codes', () => {
  const now = new Date('2026-11-26T04:00:00.000Z');
  it('issues 4 digits valid for three minutes', () => {
    const issued = issueCode(now);
    expect(issued.code).toMatch(/^\d{4}$/);
    expect(Date.parse(issued.expire) - Date.parse(issued.created)).toBe(CODE_LIFETIME_MS);
  });
  it('is usable once, before it expires', () => {
    const stored = { expireAt: '2026-11-26T04:03:00.000Z', usedAt: null };
    expect(codeState(stored, now)).toBe('usable');
    expect(codeState({ ...stored, usedAt: '2026-11-26T04:01:00.000Z' }, now)).toBe('used');
    expect(codeState(stored, new Date('2026-11-26T04:03:00.000Z'))).toBe('expired');
    expect(codeState(undefined, now)).toBe('unknown');
  });
});

describe('face match threshold (UMBRAL_ROSTRO)', () => {
  it('reads the grantor value, falls back to the default, and the CLI refuses a bad one', async () => {
    const { faceThreshold } = await import('../../src/features/face-video/index.js');
    const { paramValueProblem } = await import('../../src/domain/grantor-params.js');
    expect(faceThreshold([])).toBe(0.825);
    expect(faceThreshold([{ idCampo: 'UMBRAL_ROSTRO', valor: '0.6' }])).toBe(0.6);
    expect(faceThreshold([{ idCampo: 'UMBRAL_ROSTRO', valor: 'alto' }])).toBe(0.825);
    expect(paramValueProblem('UMBRAL_ROSTRO', '0.8')).toBeNull();
    expect(paramValueProblem('UMBRAL_ROSTRO', '1.5')).toMatch(/from 0 to 1/);
  });
});
