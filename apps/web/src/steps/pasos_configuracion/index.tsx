import { useEffect } from 'react';
import { useJourney } from '../../journey/run';
import { texts } from '../../i18n/es-MX/pasos_configuracion';
import { PendingStep } from '../../ui/PendingStep';
import { Screen } from '../../ui/Screen';
import './pasos_configuracion.css';

/** iOS Safari settings deep link (opens the Settings app; ignored elsewhere). */
const iosSafariSettings = 'App-Prefs:SAFARI';

function isIos(): boolean {
  return /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
}

export function Component() {
  const journey = useJourney('pasos_configuracion');
  const recordingSupported = typeof MediaRecorder !== 'undefined';

  // Recording already works: nothing to configure.
  useEffect(() => {
    journey({ type: 'enter' });
  }, [journey]);

  if (recordingSupported) return <PendingStep step="pasos_configuracion" />;

  return (
    <Screen
      title={texts.title}
      step="pasos_configuracion"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
            {texts.reload}
          </button>
          {isIos() ? (
            <a className="btn btn--secondary" href={iosSafariSettings}>
              {texts.openSettings}
            </a>
          ) : null}
        </>
      }
    >
      <p>{texts.intro}</p>
      <ol className="setup-steps">
        {texts.steps.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ol>
    </Screen>
  );
}
