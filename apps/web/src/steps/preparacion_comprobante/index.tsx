import { useJourney } from '../../journey/run';
import { useRuta } from '../../journey/ruta';
import { PreparationScreen } from '../../ui/PreparationScreen';
import { TipList } from '../../ui/TipList';
import { proofCopy } from '../comprobante/copy';
import '../preparacion_identificacion/preparacion_identificacion.css';

const copy = proofCopy.preparation;

/** /preparacion_comprobante: what to send as proof of address (docs/flow.md §2). */
export function Component() {
  const journey = useJourney('preparacion_comprobante');
  const ruta = useRuta();

  return (
    <PreparationScreen
      title={copy.title}
      step="preparacion_comprobante"
      captureLabel={copy.capture}
      cancelLabel={copy.cancel}
      onCapture={() => journey({ type: 'capture', ruta })}
      onCancelConfirmed={() => journey({ type: 'cancelConfirmed', ruta })}
    >
      <p>{copy.intro}</p>
      <h2 className="section-title">{copy.acceptedTitle}</h2>
      <ul className="allowed-ids">
        {copy.accepted.map((kind) => (
          <li key={kind}>{kind}</li>
        ))}
      </ul>
      <h2 className="section-title">{copy.tipsTitle}</h2>
      <TipList
        tips={[
          { icon: 'id', text: copy.tipWhole },
          { icon: 'focus', text: copy.tipFlat },
          { icon: 'sun', text: copy.tipGlare },
        ]}
      />
    </PreparationScreen>
  );
}
