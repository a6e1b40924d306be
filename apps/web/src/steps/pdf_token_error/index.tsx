import { useEffect } from 'react';
import { useLocation } from '../../navigation/router';
import { paramValue } from '@kyc/contracts/params';
import { folioOf } from '@kyc/contracts/state';
import { fetchPublicGrantorParams } from '../../api/calls';
import { setGrantorParams, useGrantorParams } from '../../session/grantor';
import { sessionState } from '../../session/storage';
import { texts as common } from '../../i18n/es-MX/common';
import { Screen } from '../../ui/Screen';
import { expiryLabel } from '../pdf_token/link';
import { texts } from '../../i18n/es-MX/pdf_token_error';
import '../pdf_token/pdf_token.css';

/**
 * /pdf_token_error (docs/flow.md §2): the link's validity lapsed on the stored date (long es-MX), the folio, and the help
 * phone (TEL_AYUDA_ENLACE, the spec's hard-coded number made a parameter; else the grantor's main phone).
 */
export function Component() {
  const params = useGrantorParams();
  const location = useLocation();
  const consumed = (location.state as { reason?: unknown } | null)?.reason === 'consumed';
  const storage = sessionState();
  const expiry = expiryLabel(storage.get('fechavigencia'));
  const folio = folioOf(storage.get('uuidUser'));
  // An expired link leaves /pdf_token before its parameters load: fetched here for the branding and the phone.
  const idOtorgante = storage.get('idOtorgante');
  const missing = params === null;
  useEffect(() => {
    if (!missing || !idOtorgante) return;
    const controller = new AbortController();
    fetchPublicGrantorParams(idOtorgante, 'pdf_token_error', controller.signal).then(setGrantorParams, () => undefined);
    return () => controller.abort();
  }, [missing, idOtorgante]);
  const phone = paramValue(params, 'TEL_AYUDA_ENLACE').trim() || paramValue(params, 'TEL_CONTACTO_PRINCIPAL').trim();
  return (
    <Screen title={consumed ? texts.consumedTitle : texts.title} step="pdf_token_error" className="link">
      <p className="notice__message" role="alert">
        {consumed ? (
          texts.consumed
        ) : expiry ? (
          <>
            {texts.lapsed} <strong>{expiry}</strong>.
          </>
        ) : (
          texts.lapsedNoDate
        )}
      </p>
      {consumed ? null : <p>{texts.help}</p>}
      {folio ? (
        <p className="folio">
          {common.folio}: <strong>{folio}</strong>
        </p>
      ) : null}
      {phone ? (
        <p>
          {texts.phone}: <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
        </p>
      ) : null}
    </Screen>
  );
}
