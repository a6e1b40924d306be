import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { rutaOf } from '../../journey/ruta';
import { copy } from '../../ui/copy';
import { CancelDialog } from '../../ui/CancelDialog';
import { Screen } from '../../ui/Screen';
import { consentCopy } from './consentCopy';
import type { ConsentKind } from './consent';
import './consent.css';

interface ConsentIntroProps {
  kind: ConsentKind;
  step: 'clausula' | 'autorizacion_solicitud';
  onRead: () => void;
  onCancelConfirmed: (ruta: string | null) => void;
}

/** /clausula and /autorizacion_solicitud: LEER DOCUMENTO and CANCELAR with the 'Cancelar proceso' modal (spec §2). */
export function ConsentIntro({ kind, step, onRead, onCancelConfirmed }: ConsentIntroProps) {
  const location = useLocation();
  const [query] = useSearchParams();
  const [cancelOpen, setCancelOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const text = consentCopy[kind];
  return (
    <Screen
      title={text.title}
      step={step}
      className="consent-intro"
      actions={
        <>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              onRead();
            }}
          >
            {consentCopy.read}
          </button>
          <button type="button" className="btn btn--secondary" disabled={busy} onClick={() => setCancelOpen(true)}>
            {copy.common.cancel}
          </button>
        </>
      }
    >
      <div className="consent-intro__icon" aria-hidden="true" />
      <p>{text.intro}</p>
      <p>{text.detail}</p>
      <CancelDialog
        open={cancelOpen}
        onDismiss={() => setCancelOpen(false)}
        onConfirm={() => {
          setBusy(true);
          onCancelConfirmed(rutaOf(location.state, query));
        }}
      />
    </Screen>
  );
}
