import { useLocation, useSearchParams } from '../../navigation/router';
import { rutaOf } from '../../journey/ruta';
import { texts as common } from '../../i18n/es-MX/common';
import { PreparationScreen } from '../../ui/PreparationScreen';
import { texts } from '../../i18n/es-MX/clausula';
import type { ConsentKind } from './consent';
import './consent.css';

interface ConsentIntroProps {
  kind: ConsentKind;
  step: 'clausula' | 'autorizacion_solicitud';
  onRead: () => void;
  onCancelConfirmed: (ruta: string | null) => void;
}

/** /clausula and /autorizacion_solicitud: LEER DOCUMENTO and CANCELAR with the 'Cancelar proceso' modal (docs/flow.md §2). */
export function ConsentIntro({ kind, step, onRead, onCancelConfirmed }: ConsentIntroProps) {
  const location = useLocation();
  const [query] = useSearchParams();
  const text = texts[kind];
  return (
    <PreparationScreen
      title={text.title}
      step={step}
      className="consent-intro"
      captureLabel={texts.read}
      cancelLabel={common.cancel}
      onCapture={onRead}
      onCancelConfirmed={() => onCancelConfirmed(rutaOf(location.state, query))}
    >
      <div className="consent-intro__icon" aria-hidden="true" />
      <p>{text.intro}</p>
      <p>{text.detail}</p>
    </PreparationScreen>
  );
}
