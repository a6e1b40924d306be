import { useEffect, useId, useState } from 'react';
import { paramEnabled, paramValue } from '@kyc/contracts/params';
import { folioOf } from '@kyc/contracts/state';
import { sendLifecycle } from '../../api/calls';
import { useJourney } from '../../journey/run';
import { currentPlatform, originOS } from '../../media/platform';
import { useGrantorParams } from '../../session/grantor';
import { readOcr } from '../../session/idCapture';
import { isPopup } from '../../session/popup';
import { readJson, sessionState } from '../../session/storage';
import { readUserData } from '../../session/userData';
import { texts as common } from '../../i18n/es-MX/common';
import { Dialog } from '../../ui/Dialog';
import { LoadingState } from '../../ui/LoadingState';
import { LockoutPanel } from '../../ui/LockoutPanel';
import { Screen } from '../../ui/Screen';
import { useLockout } from '../../ui/useLockout';
import { emailResult, processDocuments, queryScore, sendBundle } from './calls';
import { buildEmailRequest } from './email';
import { texts } from '../../i18n/es-MX/finalizado';
import { finishWithoutEmail, lockAfterFailure, reportScoreUnavailable, sendResult, type FinishDeps } from './finish';
import { returnLink } from './returnLink';
import { pollScore, type Score, type ScoreFlag } from './score';
import './finalizado.css';

type View = { kind: 'locked' } | { kind: 'concluded' } | { kind: 'scoring' } | { kind: 'result'; score: Score };

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const id = window.setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      window.clearTimeout(id);
      reject(signal.reason);
    });
  });
}

function finishDeps(uuidUser: string): FinishDeps {
  return {
    storage: sessionState(),
    sendEmail: emailResult,
    sendBundle,
    processDocuments: () => processDocuments(uuidUser),
    lifecycle: sendLifecycle,
    sleep: (ms) => sleep(ms),
    now: () => Date.now(),
  };
}

/**
 * /finalizado (docs/flow.md §2 "Final screens", §4): the lockout panel while the one-hour lock is on; the simple final
 * screen once the process is concluded (or when the grantor sends no e-mail); otherwise the score result screen.
 */
export function Component() {
  const journey = useJourney('finalizado');
  const params = useGrantorParams();
  const lockout = useLockout();
  const storage = sessionState();
  const uuidUser = storage.get('uuidUser') ?? '';
  const uuidTrx = storage.get('uuidTrx') ?? '';
  const [view, setView] = useState<View>(() => (lockout.locked ? { kind: 'locked' } : storage.get('completado') === 'true' ? { kind: 'concluded' } : { kind: 'scoring' }));
  const sendsEmail = paramEnabled(params, 'ENABLE_SEND_MAIL');

  useEffect(() => {
    if (view.kind !== 'scoring') return;
    const controller = new AbortController();
    const deps = finishDeps(uuidUser);
    const isDesktop = originOS(currentPlatform()) === 'desktop';
    void (async () => {
      try {
        const outcome = await pollScore({
          fetchScore: () => queryScore({ uuidUser, uuidTrx }, isDesktop, controller.signal),
          sleep: (ms) => sleep(ms, controller.signal),
          signal: controller.signal,
        });
        if (outcome.kind === 'unavailable') {
          setView({ kind: 'result', score: { flag: outcome.flag, fields: [] } });
          await reportScoreUnavailable(deps);
          return;
        }
        const { score } = outcome;
        sessionState().set('flag', score.flag);
        if (score.flag === 'RED') {
          setView({ kind: 'result', score });
          await lockAfterFailure(deps);
        } else if (!sendsEmail) {
          await finishWithoutEmail(deps, score.flag);
          if (!controller.signal.aborted) setView({ kind: 'concluded' });
        } else {
          setView({ kind: 'result', score });
        }
      } catch {
        // aborted: the screen went away
      }
    })();
    return () => controller.abort();
  }, [view.kind, uuidUser, uuidTrx, sendsEmail]);

  switch (view.kind) {
    case 'locked':
      return (
        <LockoutPanel
          step="finalizado"
          onAcknowledge={() => {
            if (lockout.acknowledge(false) === 'toEntry') journey({ type: 'acknowledge' });
            else setView(sessionState().get('completado') === 'true' ? { kind: 'concluded' } : { kind: 'scoring' });
          }}
        />
      );
    case 'scoring':
      return (
        <main className="screen screen--pending" data-step="finalizado" aria-busy="true">
          <LoadingState label={texts.scoring} />
        </main>
      );
    case 'concluded':
      return <Concluded folio={folioOf(uuidUser)} link={returnLink(storage.get('package'), { uuidUser, uuidTrx })} onContinue={() => journey({ type: 'continue' })} />;
    case 'result':
      return (
        <ScoreResult
          score={view.score}
          folio={folioOf(uuidUser)}
          onRedFinish={() => journey({ type: 'sent', result: 'FAIL' })}
          onSend={async (email) => {
            const request = buildEmailRequest({
              flag: view.score.flag,
              email,
              uuidUser,
              params,
              dataUser: readUserData(storage),
              ocrFront: readOcr(storage, 'ocrFront'),
              ocrBack: readOcr(storage, 'ocrBack'),
              detailsScore: view.score.fields,
              face: readJson(storage, 'face'),
              originOS: originOS(currentPlatform()),
              now: new Date(),
            });
            const fullResult = paramEnabled(params, 'RESULTADO_COMPLETO_OPENER');
            const outcome = await sendResult(finishDeps(uuidUser), request, view.score.flag, {
              fetchDocumentsFirst: fullResult,
              sendBundle: paramEnabled(params, 'SEND_ZIP_SEMAFORO'),
            });
            if (!outcome.ok) return outcome.messageClient ?? texts.emailFailed;
            const sent = () =>
              journey({
                type: 'sent',
                result: outcome.result,
                ...(fullResult ? { data: { flag: view.score.flag, Fields: view.score.fields, links: outcome.links } } : {}),
              });
            // In a popup the partner page takes over at once; in a tab the person reads the confirmation first.
            if (isPopup()) {
              sent();
              return null;
            }
            return sent;
          }}
        />
      );
  }
}

function Folio({ folio }: { folio: string }) {
  return folio ? (
    <p className="folio">
      {texts.folio}: <strong>{folio}</strong>
    </p>
  ) : null;
}

function Concluded({ folio, link, onContinue }: { folio: string; link: string | null; onContinue: () => void }) {
  const [leaving, setLeaving] = useState(false);
  const action = link ? (
    <a className="btn btn--primary" href={link}>
      {texts.backToOrigin}
    </a>
  ) : !isPopup() ? (
    <button
      type="button"
      className="btn btn--primary"
      disabled={leaving}
      onClick={() => {
        setLeaving(true);
        onContinue();
      }}
    >
      {common.continue}
    </button>
  ) : null;
  return (
    <Screen title={texts.thanks} step="finalizado" className="final" actions={action}>
      <div className="final__badge final__badge--green" aria-hidden="true" />
      <p>{texts.concluded}</p>
      <Folio folio={folio} />
    </Screen>
  );
}

const flagText: Record<ScoreFlag, string> = { GREEN: texts.green, YELLOW: texts.yellow, RED: texts.red };

interface ScoreResultProps {
  score: Score;
  folio: string;
  /** Resolves the message to show on a failure; once sent, null (the journey went on) or what ENTENDIDO does. */
  onSend: (email: string) => Promise<string | (() => void) | null>;
  onRedFinish: () => void;
}

function ScoreResult({ score, folio, onSend, onRedFinish }: ScoreResultProps) {
  const params = useGrantorParams();
  const [email, setEmail] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<string | null>(null);
  const [acknowledge, setAcknowledge] = useState<(() => void) | null>(null);
  const red = score.flag === 'RED';
  const contactEmail = paramValue(params, 'EMAIL_CONTACTO_PRINCIPAL').trim();
  const contactPhone = paramValue(params, 'TEL_CONTACTO_PRINCIPAL').trim();

  async function send(): Promise<void> {
    setState('sending');
    setError(null);
    const outcome = await onSend(email.trim());
    setConfirming(false);
    if (typeof outcome === 'string') {
      setError(outcome);
      setState('idle');
    } else {
      if (outcome) setAcknowledge(() => outcome);
      setState('sent');
    }
  }

  if (state === 'sent' && acknowledge) return <SentScreen flag={score.flag} email={email.trim()} folio={folio} onAcknowledge={acknowledge} />;

  const actions = red ? (
    <button
      type="button"
      className="btn btn--primary"
      disabled={state !== 'idle'}
      onClick={() => {
        setState('sent');
        onRedFinish();
      }}
    >
      {texts.finish}
    </button>
  ) : (
    <button type="button" className="btn btn--primary" disabled={!email.trim() || state !== 'idle'} onClick={() => setConfirming(true)}>
      {texts.finish}
    </button>
  );

  return (
    <Screen title={red ? texts.failedTitle : texts.thanks} step="finalizado" className={`final final--${score.flag.toLowerCase()}`} actions={actions}>
      <div className={`final__badge final__badge--${score.flag.toLowerCase()}`} aria-hidden="true" />
      <p>{flagText[score.flag]}</p>
      {red ? (
        <>
          <Folio folio={folio} />
          <GrantorContact email={contactEmail} phone={contactPhone} />
        </>
      ) : (
        <EmailForm email={email} state={state} error={error} folio={folio} confirming={confirming} onEmail={setEmail} onCloseConfirm={() => setConfirming(false)} onSend={() => void send()} />
      )}
    </Screen>
  );
}

function SentScreen({ flag, email, folio, onAcknowledge }: { flag: Score['flag']; email: string; folio: string; onAcknowledge: () => void }) {
  return (
    <Screen
      title={texts.sentTitle}
      step="finalizado"
      className={`final final--${flag.toLowerCase()}`}
      actions={
        <button type="button" className="btn btn--primary" onClick={onAcknowledge}>
          {texts.understood}
        </button>
      }
    >
      <div className={`final__badge final__badge--${flag.toLowerCase()}`} aria-hidden="true" />
      <p role="status">{texts.sentTo(email)}</p>
      <Folio folio={folio} />
    </Screen>
  );
}

/** The grantor's contact data on a RED result (when it has any). */
function GrantorContact({ email, phone }: { email: string; phone: string }) {
  if (!email && !phone) return null;
  return (
    <>
      <p>{texts.contact}</p>
      <dl className="final__contact">
        {email ? (
          <div>
            <dt>{texts.email}</dt>
            <dd>
              <a href={`mailto:${email}`}>{email}</a>
            </dd>
          </div>
        ) : null}
        {phone ? (
          <div>
            <dt>{texts.phone}</dt>
            <dd>
              <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
            </dd>
          </div>
        ) : null}
      </dl>
    </>
  );
}

interface EmailFormProps {
  email: string;
  state: 'idle' | 'sending' | 'sent';
  error: string | null;
  folio: string;
  confirming: boolean;
  onEmail: (email: string) => void;
  onCloseConfirm: () => void;
  onSend: () => void;
}

/** The e-mail for the result, its sending status, and the confirmation dialog. */
function EmailForm({ email, state, error, folio, confirming, onEmail, onCloseConfirm, onSend }: EmailFormProps) {
  const inputId = useId();
  const hintId = useId();
  return (
    <>
      <div className="field final__email">
        <label htmlFor={inputId} className="field__label">
          {texts.email}
        </label>
        <p id={hintId} className="field__hint">
          {texts.emailHint}
        </p>
        <input
          id={inputId}
          className="field__input"
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={320}
          aria-describedby={hintId}
          value={email}
          disabled={state !== 'idle'}
          onChange={(event) => onEmail(event.target.value)}
        />
      </div>
      <Folio folio={folio} />
      <div role="status" className="final__status">
        {state === 'sending' ? texts.sending : state === 'sent' ? texts.sent : null}
      </div>
      <div role="alert" className="final__status alert">
        {error}
      </div>
      <Dialog
        open={confirming}
        title={texts.confirmTitle}
        onClose={() => {
          if (state !== 'sending') onCloseConfirm();
        }}
        actions={
          <>
            <button type="button" className="btn btn--secondary" data-autofocus disabled={state === 'sending'} onClick={onCloseConfirm}>
              {texts.back}
            </button>
            <button type="button" className="btn btn--primary" disabled={state === 'sending'} onClick={onSend}>
              {texts.finish}
            </button>
          </>
        }
      >
        <p>{texts.confirmMessage(email.trim())}</p>
        <p role="status" className="dialog__status">
          {state === 'sending' ? texts.sending : null}
        </p>
      </Dialog>
    </>
  );
}
