import { useEffect, useRef, useState } from 'react';
import { fetchPublicGrantorParams } from '../../api/calls';
import { useLocation } from '../../navigation/router';
import { setGrantorParams } from '../../session/grantor';
import { LoadingState } from '../../ui/LoadingState';
import { Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { redoCopy as copy } from './copy';
import { RedoCapture } from './RedoCapture';
import { canRecordFace, RedoFace } from './RedoFace';
import { fetchRedoLink, finishRedo, partsOf, RedoError, redoTokenOf, sendRedoPart, type RedoLink } from './redo-api';

type Phase =
  | { kind: 'loading' }
  | { kind: 'refused'; text: string }
  | { kind: 'intro'; link: RedoLink }
  | { kind: 'capture'; link: RedoLink; index: number; problem: string | null }
  | { kind: 'face'; link: RedoLink }
  | { kind: 'sending'; link: RedoLink; index: number }
  | { kind: 'finishing' }
  | { kind: 'done' };

const pendingLabels = { loading: copy.loading, sending: copy.sending, finishing: copy.finishing } as const;

/** The customer's text of a refusal: the service's own, else by status (410 used or expired, 0 unreachable). */
function refusalText(error: unknown): string {
  if (!(error instanceof RedoError)) return copy.network;
  if (error.text) return error.text;
  return error.status === 0 ? copy.network : error.status === 410 ? copy.used : copy.invalid;
}

/**
 * /repetir (issue #16, a review's `redo`): the link from the e-mail or SMS. Loads what the link allows and the
 * grantor's branding, then captures only that step (both sides of the ID, the proof of address, or the face video),
 * sends each photo (or the video), finishes (the link is used up and the case goes back to review) and shows the
 * finished screen.
 */
export function Component() {
  const location = useLocation();
  const [token] = useState(() => redoTokenOf(location.search));
  const [phase, setPhase] = useState<Phase>(token ? { kind: 'loading' } : { kind: 'refused', text: copy.invalid });
  const lifetime = useRef(new AbortController());

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    lifetime.current = controller;
    fetchRedoLink(token, controller.signal)
      .then(async (link) => {
        setGrantorParams(await fetchPublicGrantorParams(link.idOtorgante, 'repetir', controller.signal).catch(() => null));
        setPhase({ kind: 'intro', link });
      })
      .catch((error: unknown) => (error as Error).name !== 'AbortError' && setPhase({ kind: 'refused', text: refusalText(error) }));
    return () => controller.abort();
  }, [token]);

  /** The link is used up once the step was sent; a refusal ends on its text. */
  async function finish() {
    if (!token) return;
    setPhase({ kind: 'finishing' });
    try {
      await finishRedo(token);
      setPhase({ kind: 'done' });
    } catch (error) {
      setPhase({ kind: 'refused', text: refusalText(error) });
    }
  }

  function start(link: RedoLink) {
    if (link.step !== 'face') return setPhase({ kind: 'capture', link, index: 0, problem: null });
    setPhase(canRecordFace() ? { kind: 'face', link } : { kind: 'refused', text: copy.recorderMissing });
  }

  async function send(link: RedoLink, index: number, image: Blob) {
    if (!token) return;
    setPhase({ kind: 'sending', link, index });
    try {
      await sendRedoPart(token, partsOf[link.step][index]!, image, lifetime.current.signal);
      if (index + 1 < partsOf[link.step].length) return setPhase({ kind: 'capture', link, index: index + 1, problem: null });
      await finishRedo(token);
      setPhase({ kind: 'done' });
    } catch (error) {
      if (error instanceof RedoError && (error.status === 410 || error.status === 401 || error.status === 403)) return setPhase({ kind: 'refused', text: refusalText(error) });
      setPhase({ kind: 'capture', link, index, problem: refusalText(error) });
    }
  }

  switch (phase.kind) {
    case 'loading':
    case 'sending':
    case 'finishing':
      return (
        <main className="screen screen--pending" data-step="repetir" aria-busy="true">
          <LoadingState label={pendingLabels[phase.kind]} />
        </main>
      );
    case 'refused':
      return <Notice title={copy.refusedTitle} message={phase.text} step="repetir" />;
    case 'intro':
      return (
        <Screen
          title={copy.title}
          step="repetir"
          actions={
            <button type="button" className="btn btn--primary" onClick={() => start(phase.link)}>
              {copy.start}
            </button>
          }
        >
          <p>{copy.intro(copy.stepNames[phase.link.step])}</p>
        </Screen>
      );
    case 'capture': {
      const { link, index } = phase;
      return <RedoCapture key={index} part={partsOf[link.step][index]!} problem={phase.problem} onShot={(image) => void send(link, index, image)} />;
    }
    case 'face':
      return (
        <RedoFace
          token={token ?? ''}
          onMatched={() => void finish()}
          onLeave={() => setPhase({ kind: 'intro', link: phase.link })}
          onExhausted={() => setPhase({ kind: 'refused', text: copy.faceExhausted })}
        />
      );
    case 'done':
      return (
        <Screen title={copy.finishedTitle} step="repetir">
          <p data-redo="finished">{copy.finishedBody}</p>
        </Screen>
      );
  }
}
