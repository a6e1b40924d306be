import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useJourney } from '../../journey/run';
import { CancelDialog } from '../../ui/CancelDialog';
import { Icon } from '../../ui/icons';
import { Screen } from '../../ui/Screen';
import { proofCopy } from '../comprobante/copy';
import '../preparacion_identificacion/preparacion_identificacion.css';

const copy = proofCopy.preparation;

/** The route that sent the user here (the result-link flow passes ruta), from router state or query. */
function rutaOf(state: unknown, query: URLSearchParams): string | null {
  const fromState = typeof state === 'object' && state !== null ? (state as { ruta?: unknown }).ruta : undefined;
  return typeof fromState === 'string' ? fromState : query.get('ruta');
}

/** /preparacion_comprobante: what to send as proof of address (spec §2). */
export function Component() {
  const journey = useJourney('preparacion_comprobante');
  const location = useLocation();
  const [query] = useSearchParams();
  const [cancelOpen, setCancelOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const ruta = rutaOf(location.state, query);

  return (
    <Screen
      title={copy.title}
      step="preparacion_comprobante"
      className="preparation"
      actions={
        <>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              journey({ type: 'capture', ruta });
            }}
          >
            {copy.capture}
          </button>
          <button type="button" className="btn btn--secondary" disabled={busy} onClick={() => setCancelOpen(true)}>
            {copy.cancel}
          </button>
        </>
      }
    >
      <p>{copy.intro}</p>
      <h2 className="section-title">{copy.acceptedTitle}</h2>
      <ul className="allowed-ids">
        {copy.accepted.map((kind) => (
          <li key={kind}>{kind}</li>
        ))}
      </ul>
      <h2 className="section-title">{copy.tipsTitle}</h2>
      <ul className="tips">
        <li>
          <Icon name="id" />
          {copy.tipWhole}
        </li>
        <li>
          <Icon name="focus" />
          {copy.tipFlat}
        </li>
        <li>
          <Icon name="sun" />
          {copy.tipGlare}
        </li>
      </ul>
      <CancelDialog
        open={cancelOpen}
        onDismiss={() => setCancelOpen(false)}
        onConfirm={() => {
          setBusy(true);
          journey({ type: 'cancelConfirmed', ruta });
        }}
      />
    </Screen>
  );
}
