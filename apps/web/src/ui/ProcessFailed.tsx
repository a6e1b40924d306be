import { paramEnabled, paramValue } from '@kyc/contracts/params';
import { useGrantorParams } from '../session/grantor';
import { processFolio } from '../session/session';
import { texts as capture } from '../i18n/es-MX/capture';
import { Screen } from './Screen';
import './capture.css';

/**
 * 'Proceso no exitoso' final screen (docs/flow.md §2, §8): the attempts-exceeded text, the folio (first segment of the
 * transaction id), the grantor's contact data when CONTACTO_EN_FALLA is on, and ENTENDIDO.
 */
export function ProcessFailed({ message = capture.failed.message, onAcknowledge, step }: { message?: string; onAcknowledge: () => void; step?: string }) {
  const params = useGrantorParams();
  const folio = processFolio();
  const contact = paramEnabled(params, 'CONTACTO_EN_FALLA');
  const email = paramValue(params, 'EMAIL_CONTACTO_PRINCIPAL').trim();
  const phone = paramValue(params, 'TEL_CONTACTO_PRINCIPAL').trim();
  return (
    <Screen
      title={capture.failed.title}
      step={step}
      className="process-failed"
      actions={
        <button type="button" className="btn btn--primary" onClick={onAcknowledge}>
          {capture.failed.understood}
        </button>
      }
    >
      <p className="notice__message" role="alert">
        {message}
      </p>
      {folio ? (
        <p className="folio">
          {capture.failed.folio}: <strong>{folio}</strong>
        </p>
      ) : null}
      {contact && (email || phone) ? (
        <>
          <p>{capture.failed.contact}</p>
          <dl className="capture-contact">
            {email ? (
              <div>
                <dt>{capture.failed.email}</dt>
                <dd>
                  <a href={`mailto:${email}`}>{email}</a>
                </dd>
              </div>
            ) : null}
            {phone ? (
              <div>
                <dt>{capture.failed.phone}</dt>
                <dd>
                  <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
                </dd>
              </div>
            ) : null}
          </dl>
        </>
      ) : null}
    </Screen>
  );
}
