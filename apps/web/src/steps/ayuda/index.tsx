import { useParams } from '../../navigation/router';
import { paramValue } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { processFolio } from '../../session/session';
import { texts as common } from '../../i18n/es-MX/common';
import { texts } from '../../i18n/es-MX/ayuda';
import { Screen } from '../../ui/Screen';
import { chatLink, telHref } from './help';
import './ayuda.css';

export function Component() {
  const { ruta = '' } = useParams();
  const params = useGrantorParams();
  const journey = useJourney('ayuda');
  const folio = processFolio();
  const email = paramValue(params, 'EMAIL_CONTACTO_PRINCIPAL').trim();
  const phone = paramValue(params, 'TEL_CONTACTO_PRINCIPAL').trim();
  const chat = chatLink(paramValue(params, 'URL_CHAT'), folio);

  return (
    <Screen
      title={texts.title}
      step="ayuda"
      className="help"
      actions={
        <button type="button" className="btn btn--primary" onClick={() => journey({ type: 'close', ruta })}>
          {texts.close}
        </button>
      }
    >
      <p>{email || phone || chat ? texts.intro : texts.noContact}</p>
      {email || phone ? (
        <dl className="help__contacts">
          {email ? (
            <div className="help__contact">
              <dt>{texts.email}</dt>
              <dd>
                <a href={`mailto:${email}`}>{email}</a>
              </dd>
            </div>
          ) : null}
          {phone ? (
            <div className="help__contact">
              <dt>{texts.phone}</dt>
              <dd>
                <a href={telHref(phone)}>{phone}</a>
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {chat ? (
        <a className="btn btn--secondary help__chat" href={chat} target="_blank" rel="noopener noreferrer">
          {texts.chat}
          <span className="visually-hidden"> ({texts.chatHint})</span>
        </a>
      ) : null}
      {folio ? (
        <p className="folio">
          {common.folio}: <strong>{folio}</strong>
        </p>
      ) : null}
    </Screen>
  );
}
