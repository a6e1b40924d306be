import { useCallback, useState } from 'react';
import { useLocation, useParams } from '../../navigation/router';
import { paramEnabled } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { texts as common } from '../../i18n/es-MX/common';
import { texts } from '../../i18n/es-MX/inicio';
import { LoadingState } from '../../ui/LoadingState';
import { Icon } from '../../ui/icons';
import { LockoutPanel } from '../../ui/LockoutPanel';
import { BadUrlNotice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { useLockout } from '../../ui/useLockout';
import { useStart } from './useStart';
import './inicio.css';

function isResumeState(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { resume?: unknown }).resume === true;
}

export function Component() {
  const { apikey = '' } = useParams();
  const location = useLocation();
  const journey = useJourney('inicio');
  const params = useGrantorParams();
  const [starting, setStarting] = useState(false);
  const onStarted = useCallback(() => journey({ type: 'enter' }), [journey]);
  const { status, spinner, retry } = useStart(apikey, location.search, location.key, isResumeState(location.state), onStarted);

  const lockout = useLockout();

  // Spec §4 lockout, also when the server keeps the lock of this client (status 'locked'); ENTENDIDO lifts it only
  // once the time has passed (then the start is asked again).
  if (lockout.locked || status === 'locked') {
    return (
      <LockoutPanel
        step="bloqueo"
        onAcknowledge={() => {
          if (lockout.acknowledge(true) === 'cleared' && status === 'locked') retry();
        }}
      />
    );
  }
  if (status === 'badUrl') return <BadUrlNotice onRetry={() => window.location.reload()} />;

  const dni = paramEnabled(params, 'VARIANTE_DNI');
  const ready = status === 'ready';
  const primary =
    status === 'offline' ? (
      <button type="button" className="btn btn--primary" onClick={retry}>
        {common.retry}
      </button>
    ) : (
      <button
        type="button"
        className="btn btn--primary"
        disabled={!ready || starting}
        onClick={() => {
          setStarting(true);
          journey({ type: 'start' });
        }}
      >
        {texts.start}
      </button>
    );

  return (
    <>
      <Screen
        title={texts.title}
        step="inicio"
        className="entry"
        actions={
          <>
            {primary}
            {ready && paramEnabled(params, 'MOSTRAR_AYUDA') ? (
              <button type="button" className="btn btn--text" onClick={() => journey({ type: 'help' })}>
                {texts.help}
              </button>
            ) : null}
          </>
        }
      >
        <p>{texts.intro}</p>
        <ul className="entry__requirements">
          <li className="entry__requirement">
            <Icon name="id" />
            {dni ? texts.requirementIdDni : texts.requirementId}
          </li>
          <li className="entry__requirement">
            <Icon name="camera" />
            {texts.requirementCamera}
          </li>
          <li className="entry__requirement">
            <Icon name="wifi" />
            {texts.requirementConnection}
          </li>
        </ul>
        <div role="status" className="entry__status">
          {status === 'loading' && !spinner ? <p>{texts.loadingParams}</p> : null}
        </div>
        <div role="alert" className="entry__status">
          {status === 'offline' ? <p className="alert">{common.network}</p> : null}
        </div>
      </Screen>
      {spinner ? (
        <div className="loading-overlay">
          <LoadingState label={texts.loadingParams} />
        </div>
      ) : null}
    </>
  );
}
