import { useMemo } from 'react';
import type { TermsAcceptance } from '../../journey/types';
import { useGrantorParams } from '../../session/grantor';
import { sessionState } from '../../session/storage';
import { userName } from '../../session/userData';
import { DocumentAcceptScreen } from '../../ui/DocumentAcceptScreen';
import { LockoutPanel } from '../../ui/LockoutPanel';
import { useLockout } from '../../ui/useLockout';
import { consentDocument, type ConsentKind } from './consent';
import { texts } from '../../i18n/es-MX/clausula';
import './consent.css';

interface ConsentDocumentPageProps {
  kind: ConsentKind;
  step: 'validacion_documento' | 'autorizacion_documento';
  onAccept: (acceptance: TermsAcceptance) => void;
  /** ENTENDIDO on the attempt-limit overlay while the lock is still on. */
  onLockoutToEntry: () => void;
}

/**
 * /validacion_documento and /autorizacion_documento (docs/flow.md §2): the document text from the grantor's parameters
 * and one accept control. The acceptance is recorded like /terminos (version, SHA-256 of the exact text shown,
 * user agent). The attempt-limit overlay shows while the one-hour lock is on; the rotate-to-portrait overlay is
 * the app shell's, shown over every screen of a phone held in landscape.
 */
export function ConsentDocumentPage({ kind, step, onAccept, onLockoutToEntry }: ConsentDocumentPageProps) {
  const params = useGrantorParams();
  const lockout = useLockout();
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

  return (
    <DocumentAcceptScreen title={doc.title} step={step} block="consent-document" document={doc} acceptLabel={texts.accept} acceptedLabel={texts.accepted} onAccept={onAccept}>
      {doc.version ? <p className="consent-document__version">{texts.version(doc.version)}</p> : null}
    </DocumentAcceptScreen>
  );
}
