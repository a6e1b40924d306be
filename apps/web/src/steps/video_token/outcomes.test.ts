import { describe, expect, it } from 'vitest';
import { errorTexts, faceMessages } from '@kyc/contracts/texts';
import { applyFailure, attemptRules, attemptsExhausted, describeFailure, dialogAction, faceMessageOf, type VideoAttempts } from './outcomes';
import { texts } from '../../i18n/es-MX/video_token';

const response = (status: number, message?: string, messageClient?: string) => describeFailure({ kind: 'response', status, message, messageClient });

describe('face step messages (docs/flow.md §8)', () => {
  it('the first seven recoverable messages do not count an attempt on 400 or 500', () => {
    for (const text of [faceMessages.noFace, faceMessages.mask, faceMessages.badLight, faceMessages.blurry, faceMessages.multipleFaces, faceMessages.lowLight, faceMessages.comparisonFailed]) {
      for (const status of [400, 500]) {
        const view = response(status, text);
        expect(view).toMatchObject({ message: text, countsAttempt: false, exhausts: false, restart: false });
        expect(view.hint).toBeTruthy();
      }
    }
  });

  it('the phrase messages count an attempt and ask to read loud and clear', () => {
    for (const text of [faceMessages.phrase, faceMessages.phraseShort, 'No logramos entender la frase']) {
      expect(response(400, text)).toMatchObject({ message: faceMessages.phrase, countsAttempt: true, hint: 'Lee cada número en voz alta y claro.' });
    }
  });

  it('a recoverable message on another status counts', () => {
    expect(response(422, faceMessages.blurry).countsAttempt).toBe(true);
  });

  it('message_client wins over message; accents, case and trailing dots are ignored', () => {
    expect(faceMessageOf('NO SE ENCONTRÓ ROSTRO.')).toBe('noFace');
    expect(response(400, 'face not found', faceMessages.mask).message).toBe(faceMessages.mask);
  });

  it("'No se encontró rostro' is the default of a bare 400", () => {
    expect(response(400)).toMatchObject({ message: faceMessages.noFace, countsAttempt: false });
  });

  it("'No hay coincidencia intente nuevamente' shows the inconsistency text and Reiniciar", () => {
    expect(response(400, errorTexts.noMatch)).toEqual({
      message: errorTexts.noMatchClient,
      hint: null,
      countsAttempt: true,
      exhausts: false,
      restart: true,
    });
    // A 200 without a match is the same verdict.
    expect(response(200)).toMatchObject({ message: errorTexts.noMatchClient, restart: true, countsAttempt: true });
  });

  it("'Spoof detected' (404) sets the attempts straight to the maximum", () => {
    const view = response(404, errorTexts.spoofDetected);
    expect(view.exhausts).toBe(true);
    expect(applyFailure({ used: 0, max: 3 }, view)).toEqual({ used: 3, max: 3 });
  });

  it('other 404: a hint to check the connection, attempt counted', () => {
    expect(response(404, 'Not Found')).toMatchObject({ message: errorTexts.serviceUnavailable, hint: 'Verifica tu conexión a internet.', countsAttempt: true });
  });

  it('other statuses: service unavailable (or the server text meant for the user), counted', () => {
    expect(response(503, 'down')).toMatchObject({ message: errorTexts.serviceUnavailable, countsAttempt: true });
    expect(response(502, 'x', 'Intenta más tarde')).toMatchObject({ message: 'Intenta más tarde', countsAttempt: true });
  });

  it("the server's attempts-exceeded answer (429) exhausts the attempts", () => {
    expect(response(429, 'Attempts exhausted', errorTexts.attemptsExceeded)).toMatchObject({ exhausts: true, message: errorTexts.attemptsExceeded });
  });

  it('network and watchdog texts', () => {
    expect(describeFailure({ kind: 'network' })).toMatchObject({ message: errorTexts.network, countsAttempt: false });
    expect(describeFailure({ kind: 'watchdog' })).toMatchObject({ message: errorTexts.watchdog, countsAttempt: true });
  });

  it('video token request failures: place the face in the marked area, or service unavailable; never counted', () => {
    expect(describeFailure({ kind: 'token', status: 400, message: 'no face' })).toMatchObject({ message: texts.tokenFailure, countsAttempt: false });
    expect(describeFailure({ kind: 'token', status: 400, messageClient: faceMessages.lowLight })).toMatchObject({ message: faceMessages.lowLight, countsAttempt: false });
    expect(describeFailure({ kind: 'token', status: 500 })).toMatchObject({ message: errorTexts.serviceUnavailable, countsAttempt: false });
    expect(describeFailure({ kind: 'token', status: null })).toMatchObject({ message: errorTexts.network });
  });
});

describe('attempt rules', () => {
  it('counted failures add one up to the maximum; uncounted ones add nothing', () => {
    let attempts = { used: 0, max: 3 };
    attempts = applyFailure(attempts, response(400, faceMessages.noFace));
    expect(attempts.used).toBe(0);
    attempts = applyFailure(attempts, response(400, errorTexts.noMatch));
    attempts = applyFailure(attempts, describeFailure({ kind: 'watchdog' }));
    expect(attemptsExhausted(attempts)).toBe(false);
    attempts = applyFailure(attempts, response(503));
    expect(attempts).toEqual({ used: 3, max: 3 });
    expect(attemptsExhausted(attempts)).toBe(true);
    expect(applyFailure(attempts, response(503)).used).toBe(3);
  });
});

describe('"In the link/provider variant video attempts: 3 for the error modal and 5 for the final screen" (docs/flow.md §9)', () => {
  const noMatch = () => response(400, errorTexts.noMatch);
  const counted = () => describeFailure({ kind: 'watchdog' });
  const uncounted = () => response(400, faceMessages.noFace);

  it('the link flow has 5 in all; the main flow INTENTOS_VIDEO_TOKEN and no link restart', () => {
    expect(attemptRules('link', 3)).toEqual({ max: 5, restartLinkFrom: 3 });
    expect(attemptRules('link', 7)).toEqual({ max: 5, restartLinkFrom: 3 });
    expect(attemptRules('main', 4)).toEqual({ max: 4, restartLinkFrom: null });
  });

  it('link: Reintentar (Reiniciar after a no-match) for attempts 1-2, restart from /pdf_token for 3-4, final screen at 5', () => {
    const rules = attemptRules('link', 3);
    let attempts: VideoAttempts = { used: 0, max: rules.max };
    const actions: string[] = [];
    for (const failure of [counted(), noMatch(), counted(), noMatch(), counted()]) {
      attempts = applyFailure(attempts, failure);
      actions.push(attemptsExhausted(attempts) ? 'finalScreen' : dialogAction(failure, attempts, rules));
    }
    expect(actions).toEqual(['retry', 'restartStep', 'restartLink', 'restartLink', 'finalScreen']);
  });

  it('link: an uncounted failure retries in place before the 3rd attempt, restarts the link after it', () => {
    const rules = attemptRules('link', 3);
    expect(dialogAction(uncounted(), applyFailure({ used: 2, max: 5 }, uncounted()), rules)).toBe('retry');
    expect(dialogAction(uncounted(), applyFailure({ used: 3, max: 5 }, uncounted()), rules)).toBe('restartLink');
  });

  it("link: 'Spoof detected' and the server's 429 go straight to the final screen (5)", () => {
    const spoof = response(404, errorTexts.spoofDetected);
    expect(applyFailure({ used: 0, max: 5 }, spoof)).toEqual({ used: 5, max: 5 });
    expect(attemptsExhausted(applyFailure({ used: 1, max: 5 }, response(429, 'Attempts exhausted')))).toBe(true);
  });

  it('main flow unchanged: retry or restart the step until INTENTOS_VIDEO_TOKEN', () => {
    const rules = attemptRules('main', 3);
    let attempts: VideoAttempts = { used: 0, max: rules.max };
    attempts = applyFailure(attempts, counted());
    expect(dialogAction(counted(), attempts, rules)).toBe('retry');
    attempts = applyFailure(attempts, noMatch());
    expect(dialogAction(noMatch(), attempts, rules)).toBe('restartStep');
    attempts = applyFailure(attempts, counted());
    expect(attemptsExhausted(attempts)).toBe(true);
  });
});
