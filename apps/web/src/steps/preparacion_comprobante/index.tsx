import { useJourney } from '../../journey/run';
import { useRuta } from '../../journey/ruta';
import { PreparationScreen } from '../../ui/PreparationScreen';
import { TipList } from '../../ui/TipList';
import { texts } from '../../i18n/es-MX/preparacion_comprobante';
import '../preparacion_identificacion/preparacion_identificacion.css';

/** /preparacion_comprobante: what to send as proof of address (docs/flow.md §2). */
export function Component() {
  const journey = useJourney('preparacion_comprobante');
  const ruta = useRuta();

  return (
    <PreparationScreen
      title={texts.title}
      step="preparacion_comprobante"
      captureLabel={texts.capture}
      cancelLabel={texts.cancel}
      onCapture={() => journey({ type: 'capture', ruta })}
      onCancelConfirmed={() => journey({ type: 'cancelConfirmed', ruta })}
    >
      <p>{texts.intro}</p>
      <h2 className="section-title">{texts.acceptedTitle}</h2>
      <ul className="allowed-ids">
        {texts.accepted.map((kind) => (
          <li key={kind}>{kind}</li>
        ))}
      </ul>
      <h2 className="section-title">{texts.tipsTitle}</h2>
      <TipList
        tips={[
          { icon: 'id', text: texts.tipWhole },
          { icon: 'focus', text: texts.tipFlat },
          { icon: 'sun', text: texts.tipGlare },
        ]}
      />
    </PreparationScreen>
  );
}
