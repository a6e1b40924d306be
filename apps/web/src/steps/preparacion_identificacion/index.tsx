import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { paramEnabled } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { copy } from '../../ui/copy';
import { Icon } from '../../ui/icons';
import { CancelDialog } from '../../ui/CancelDialog';
import { Screen } from '../../ui/Screen';
import './preparacion_identificacion.css';

/** The route that sent the user here (spec: "cancel route parameter ruta"), from router state or query. */
function rutaOf(state: unknown, query: URLSearchParams): string | null {
  const fromState = typeof state === 'object' && state !== null ? (state as { ruta?: unknown }).ruta : undefined;
  return typeof fromState === 'string' ? fromState : query.get('ruta');
}

export function Component() {
  const params = useGrantorParams();
  const journey = useJourney('preparacion_identificacion');
  const location = useLocation();
  const [query] = useSearchParams();
  const [cancelOpen, setCancelOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const dni = paramEnabled(params, 'VARIANTE_DNI');

  return (
    <Screen
      title={copy.preparation.title}
      step="preparacion_identificacion"
      className="preparation"
      actions={
        <>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              journey({ type: 'capture' });
            }}
          >
            {copy.preparation.capture}
          </button>
          <button type="button" className="btn btn--secondary" disabled={busy} onClick={() => setCancelOpen(true)}>
            {copy.common.cancel}
          </button>
        </>
      }
    >
      <h2 className="section-title">{copy.preparation.tipsTitle}</h2>
      <ul className="tips">
        <li>
          <Icon name="calendar" />
          {copy.preparation.tipCurrent}
        </li>
        <li>
          <Icon name="focus" />
          {copy.preparation.tipSharp}
        </li>
        <li>
          <Icon name="sun" />
          {copy.preparation.tipGlare}
        </li>
      </ul>
      <h2 className="section-title">{copy.preparation.allowedTitle}</h2>
      <ul className="allowed-ids">
        {dni ? (
          <li>{copy.preparation.allowedDni}</li>
        ) : (
          <>
            <li>{copy.preparation.allowedIne}</li>
            <li>{copy.preparation.allowedFm}</li>
            <li>{copy.preparation.allowedPassport}</li>
          </>
        )}
      </ul>
      <CancelDialog
        open={cancelOpen}
        onDismiss={() => setCancelOpen(false)}
        onConfirm={() => {
          setBusy(true);
          journey({ type: 'cancelConfirmed', ruta: rutaOf(location.state, query) });
        }}
      />
    </Screen>
  );
}
