import { useState } from 'react';
import { paramInt } from '@kyc/contracts/params';
import { recorderSupported } from '../../media/recorder';
import { useGrantorParams } from '../../session/grantor';
import type { SessionFacts } from '../../session/session';
import { FaceVideoScreen } from '../video_token/FaceVideo';
import { useFaceAttempts, type FaceEnd } from '../video_token/useFaceAttempts';
import { redoFaceCalls } from './redo-face';

/** The redo link settles the user, transaction and grantor: the attempt's session facts stay empty. */
const noSession: SessionFacts = {
  uuidUser: null,
  uuidTrx: null,
  apikey: null,
  idOtorgante: null,
  uuidOtorgante: null,
  fechavigencia: null,
  linkToken: null,
  transactionToken: null,
  completado: null,
  externalReference: null,
};

interface Props {
  token: string;
  /** A match: the page finishes the redo. */
  onMatched(): void;
  /** Cancelled, or the dialog's Cancelar: back to the redo's first screen (the link still works). */
  onLeave(): void;
  /** No attempts left (after 'Proceso no exitoso'). */
  onExhausted(): void;
}

/**
 * The face video through a redo link (/repetir, step `face`; docs/decisions.md "Redoing the face video"): the
 * journey's face screen and attempt (the photo, the code and its digit schedule, the recording, the verdict), on the
 * redo's calls and attempts (INTENTOS_VIDEO_TOKEN, counted apart by the server). Always the recorder path: a redo
 * is one upload, whatever real-time mode the grantor uses in the journey.
 */
export function RedoFace({ token, onMatched, onLeave, onExhausted }: Props) {
  const params = useGrantorParams();
  const [calls] = useState(() => redoFaceCalls(token));
  const max = paramInt(params, 'INTENTOS_VIDEO_TOKEN');
  const ends: Record<FaceEnd, () => void> = {
    matched: onMatched,
    attemptsExhausted: () => undefined,
    acknowledgeFailure: onExhausted,
    cancelConfirmed: onLeave,
    abandon: onLeave,
    restartLink: onLeave,
  };
  const model = useFaceAttempts({
    step: 'repetir',
    flow: 'redo',
    path: 'grabacion',
    rules: { max, restartLinkFrom: null },
    initialAttempts: () => ({ used: 0, max }),
    runFacts: () => ({ calls, session: noSession, passport: false }),
    end: (event) => ends[event](),
  });
  return <FaceVideoScreen model={model} />;
}

/** Whether this browser can record the redo's face video (MediaRecorder). */
export const canRecordFace = recorderSupported;
