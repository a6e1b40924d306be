import { useEffect, useMemo, useState } from 'react';
import { paramEnabled } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { sessionState } from '../../session/storage';
import { userName } from '../../session/userData';
import { copy } from '../../ui/copy';
import { PendingStep } from '../../ui/PendingStep';
import { Screen } from '../../ui/Screen';
import { sha256Hex, termsDocument } from './terms';
import './terminos.css';

export function Component() {
  const params = useGrantorParams();
  const journey = useJourney('terminos');
  const [accepted, setAccepted] = useState(false);
  const [failed, setFailed] = useState(false);
  const required = paramEnabled(params, 'REQ_ACEPTACION_DE_DATOS');
  const terms = useMemo(() => termsDocument(params, userName(sessionState()), new Date()), [params]);

  // REQ_ACEPTACION_DE_DATOS FALSO: straight on to the ID preparation.
  useEffect(() => {
    journey({ type: 'enter' });
  }, [journey]);

  if (!required) return <PendingStep step="terminos" />;

  async function accept(): Promise<void> {
    setAccepted(true);
    setFailed(false);
    try {
      const sha256 = await sha256Hex(terms.text);
      journey({ type: 'accept', acceptance: { version: terms.version, sha256, userAgent: navigator.userAgent } });
    } catch {
      setAccepted(false);
      setFailed(true);
    }
  }

  return (
    <Screen
      title={terms.title}
      step="terminos"
      className="terms"
      actions={
        <>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={accepted}
              disabled={accepted}
              onChange={(event) => {
                if (event.target.checked) void accept();
              }}
            />
            <span>{copy.terms.accept}</span>
          </label>
          <div role="status" className="terms__status">
            {accepted ? copy.terms.accepted : null}
          </div>
          <div role="alert" className="terms__status">
            {failed ? copy.notices.unexpected : null}
          </div>
        </>
      }
    >
      <p className="terms__date">{terms.dateLine}</p>
      <div className="terms__text">
        {terms.text.split('\n').map((line, index) => (line.trim() ? <p key={index}>{line}</p> : null))}
      </div>
    </Screen>
  );
}
