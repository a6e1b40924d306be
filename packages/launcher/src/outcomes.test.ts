import { describe, expect, it } from 'vitest';
import { completeResult, isCancellation, launcherError, processError } from './outcomes';

describe('typed outcomes for integrators', () => {
  it('a completed message is a CompleteResult with ids, and the flag when the grantor sends the full result', () => {
    const message = { step: 'completed', result: 'OK', uuid: 'u-1', transaccion: 't-1', data: { flag: 'GREEN', Fields: [] } };
    expect(completeResult(message)).toEqual({ result: 'OK', userId: 'u-1', transactionId: 't-1', flag: 'GREEN', message });
    const underReview = completeResult({ step: 'completed', result: 'FAIL', uuid: 'u-2', transaccion: 't-2' });
    expect(underReview).toMatchObject({ result: 'FAIL', userId: 'u-2' });
    expect(underReview).not.toHaveProperty('flag');
    expect(completeResult({ step: 'completed', result: 'OK', data: { flag: 'purple' } })).not.toHaveProperty('flag');
  });

  it('a cancellation is the person leaving; other failures are errors with the text shown to them', () => {
    expect(isCancellation({ step: 'preparacion_identificacion', result: 'INCOMPLETED', type: 'PROCESS', error_text: 'Cancelado' })).toBe(true);
    expect(isCancellation({ step: 'identificacion', result: 'FAIL', error_text: 'No se pudo' })).toBe(false);
    expect(processError({ step: 'identificacion', result: 'FAIL', error_text: 'No se pudo' })).toMatchObject({ kind: 'process', step: 'identificacion', text: 'No se pudo' });
  });

  it('a launcher failure carries its HTTP status', () => {
    const failure = { step: 'launcher', result: 'FAIL', type: 'LAUNCHER', status: 401, error_text: 'Llaves inválidas' } as const;
    expect(launcherError(failure)).toEqual({ kind: 'launcher', step: 'launcher', text: 'Llaves inválidas', httpStatus: 401, message: failure });
  });
});
