import { useEffect } from 'react';
import { paramInt, paramValue } from '@kyc/contracts/params';
import { sendAudit } from '../../api/calls';
import { useJourney } from '../../journey/run';
import { recorderSupported } from '../../media/recorder';
import { useGrantorParams } from '../../session/grantor';
import { readSession } from '../../session/session';
import { sessionState } from '../../session/storage';
import { journeyFaceCalls } from './face-calls';
import { attemptRules } from './outcomes';
import { videoPathOf } from './schedule';
import { isPassportCapture, readVideoAttempts, storeCodes, storeFaceMatch, storeNoMatch, writeVideoAttempts } from './state';
import { useFaceAttempts, type FaceVideoModel } from './useFaceAttempts';

export type { FaceActions, FaceVideoModel } from './useFaceAttempts';

/**
 * The face video of the journey (/video_token) and of the result-link flow (/pdf_video_token): the session storage of
 * codes, attempts and the verdict, the audit of failures, and the journey events of the step's ends, around
 * `useFaceAttempts`.
 */
export function useFaceVideo(flow: 'main' | 'link'): FaceVideoModel {
  const step = flow === 'link' ? 'pdf_video_token' : 'video_token';
  const journey = useJourney(step);
  const params = useGrantorParams();
  const path = videoPathOf(paramValue(params, 'MODO_VIDEO_TOKEN'));
  // Spec §9: the link variant allows 5 video attempts, 3 of them retried in place (the server counts them apart).
  const rules = attemptRules(flow, paramInt(params, 'INTENTOS_VIDEO_TOKEN'));

  useEffect(() => {
    if (path === 'grabacion' && !recorderSupported()) journey({ type: 'recorderUnsupported' });
  }, [path, journey]);

  return useFaceAttempts({
    step,
    flow,
    path,
    rules,
    initialAttempts: () => readVideoAttempts(sessionState(), rules.max, Date.now()),
    runFacts: () => {
      const session = readSession();
      return { calls: journeyFaceCalls(flow, step, session), session, passport: isPassportCapture(sessionState()) };
    },
    // intentsData.video_token mirrors the attempts once a failure changed them.
    onAttempts: (attempts) => writeVideoAttempts(sessionState(), attempts),
    onCodes: (codes) => storeCodes(sessionState(), codes),
    onMatch: (result) => storeFaceMatch(sessionState(), result),
    onNoMatch: () => storeNoMatch(sessionState()),
    audit: (datum) => sendAudit(step, 'Error', datum).catch(() => undefined),
    end: (event) => journey(event === 'cancelConfirmed' ? { type: event, ruta: step } : { type: event }),
  });
}
