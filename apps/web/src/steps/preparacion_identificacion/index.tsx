import { paramEnabled } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useRuta } from '../../journey/ruta';
import { useGrantorParams } from '../../session/grantor';
import { texts as common } from '../../i18n/es-MX/common';
import { texts } from '../../i18n/es-MX/preparacion_identificacion';
import { PreparationScreen } from '../../ui/PreparationScreen';
import { TipList } from '../../ui/TipList';
import './preparacion_identificacion.css';

export function Component() {
  const params = useGrantorParams();
  const journey = useJourney('preparacion_identificacion');
  const ruta = useRuta();
  const dni = paramEnabled(params, 'VARIANTE_DNI');

  return (
    <PreparationScreen
      title={texts.title}
      step="preparacion_identificacion"
      captureLabel={texts.capture}
      cancelLabel={common.cancel}
      onCapture={() => journey({ type: 'capture' })}
      onCancelConfirmed={() => journey({ type: 'cancelConfirmed', ruta })}
    >
      <h2 className="section-title">{texts.tipsTitle}</h2>
      <TipList
        tips={[
          { icon: 'calendar', text: texts.tipCurrent },
          { icon: 'focus', text: texts.tipSharp },
          { icon: 'sun', text: texts.tipGlare },
        ]}
      />
      <h2 className="section-title">{texts.allowedTitle}</h2>
      <ul className="allowed-ids">
        {dni ? (
          <li>{texts.allowedDni}</li>
        ) : (
          <>
            <li>{texts.allowedIne}</li>
            <li>{texts.allowedFm}</li>
            <li>{texts.allowedPassport}</li>
          </>
        )}
      </ul>
    </PreparationScreen>
  );
}
