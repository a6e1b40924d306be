import { useMemo, useState } from 'react';
import type { TermsAcceptance } from '../../journey/types';
import { useGrantorParams } from '../../session/grantor';
import { sessionState } from '../../session/storage';
import { userName } from '../../session/userData';
import { copy } from '../../ui/copy';
import { LockoutPanel } from '../../ui/LockoutPanel';
import { Screen } from '../../ui/Screen';
import { useLockout } from '../../ui/useLockout';
import { sha256Hex } from '../terminos/terms';
import { consentDocument, type ConsentKind } from './consent';
import { consentCopy } from './consentCopy';
import './consent.css';

interface ConsentDocumentPageProps {
  kind: ConsentKind;
  step: 'validacion_documento' | 'autorizacion_documento';
  onAccept: (acceptance: TermsAcceptance) => void;
  /** ENTENDIDO on the attempt-limit overlay while the lock is still on. */
  onLockoutToEntry: () => void;
}

/**
 * /validacion_documento and /autorizacion_documento (spec §2): the document text from the grantor's parameters
 * and one accept control. The acceptance is recorded like /terminos (version, SHA-256 of the exact text shown,
 * user agent). The attempt-limit overlay shows while the one-hour lock is on; the rotate-to-portrait overlay is
 * the app shell's, shown over every screen of a phone held in landscape.
 */
export function ConsentDocumentPage({ kind, step, onAccept, onLockoutToEntry }: ConsentDocumentPageProps) {
  const params = useGrantorParams();
  const lockout = useLockout();
  const [accepted, setAccepted] = useState(false);
  const [failed, setFailed] = useState(false);
  const doc = useMemo(() => consentDocument(params, kind, userName(sessionState())), [params, kind]);

  if (lockout.locked) {
    return (
      <LockoutPanel
        step={step}
        onAcknowledge={() => {
          if (lockout.acknowledge(false) === 'toEntry') onLockoutToEntry();
        }}
      />
    );
  }

  async function accept(): Promise<void> {
    setAccepted(true);
    setFailed(false);
    try {
      const sha256 = await sha256Hex(doc.text);
      onAccept({ version: doc.version, sha256, userAgent: navigator.userAgent });
    } catch {
      setAccepted(false);
      setFailed(true);
    }
  }

  return (
    <Screen
      title={doc.title}
      step={step}
      className="consent-document"
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
            <span>{consentCopy.accept}</span>
          </label>
          <div role="status" className="consent-document__status">
            {accepted ? consentCopy.accepted : null}
          </div>
          <div role="alert" className="consent-document__status">
            {failed ? copy.notices.unexpected : null}
          </div>
        </>
      }
    >
      <div className="consent-document__text">
        {doc.text.split('\n').map((line, index) => (line.trim() ? <p key={index}>{line}</p> : null))}
      </div>
      {doc.version ? <p className="consent-document__version">{consentCopy.version(doc.version)}</p> : null}
    </Screen>
  );
}
