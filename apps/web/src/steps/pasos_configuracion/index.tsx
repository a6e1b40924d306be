import { useEffect } from 'react';
import { useJourney } from '../../journey/run';
import { copy } from '../../ui/copy';
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
      title={copy.safari.title}
      step="pasos_configuracion"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
            {copy.safari.reload}
          </button>
          {isIos() ? (
            <a className="btn btn--secondary" href={iosSafariSettings}>
              {copy.safari.openSettings}
            </a>
          ) : null}
        </>
      }
    >
      <p>{copy.safari.intro}</p>
      <ol className="setup-steps">
        {copy.safari.steps.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ol>
    </Screen>
  );
}
