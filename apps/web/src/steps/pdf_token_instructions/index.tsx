import { useJourney } from '../../journey/run';
import { sessionState } from '../../session/storage';
import { ContinueOnceButton } from '../../ui/ContinueOnceButton';
import { Screen } from '../../ui/Screen';
import { expiryLabel } from '../pdf_token/link';
import { texts } from '../../i18n/es-MX/pdf_token_instructions';
import '../pdf_token/pdf_token.css';

/**
 * /pdf_token_instructions (docs/flow.md §2): camera access and a quiet place. The spec's "hard-coded expiry label" is
 * the stored link expiry here, and CONTINUAR (no action shown) goes on like /pdf_token's, to the face video.
 */
export function Component() {
  const journey = useJourney('pdf_token');
  const expiry = expiryLabel(sessionState().get('fechavigencia'));
  return (
    <Screen title={texts.title} step="pdf_token_instructions" className="link" actions={<ContinueOnceButton onContinue={() => journey({ type: 'continue' })} />}>
      <ul className="link__tips">
        <li>{texts.camera}</li>
        <li>{texts.place}</li>
      </ul>
      {expiry ? (
        <p className="link__expiry">
          {texts.expiry} <strong>{expiry}</strong>.
        </p>
      ) : null}
    </Screen>
  );
}
