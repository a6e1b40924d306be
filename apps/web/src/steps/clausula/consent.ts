import { paramValue, type GrantorParam, type GrantorParamId } from '@kyc/contracts/params';
import { texts } from '../../i18n/es-MX/clausula';
import { fillPlaceholders, grantorLegalName } from '../terminos/terms';

/** Consent 2 (the clause on electronic means) and consent 3 (the authorization). */
export type ConsentKind = 'clausula' | 'autorizacion';

export interface ConsentDocument {
  title: string;
  /** The text shown and accepted, {enter} already turned into '\n'. */
  text: string;
  version: string;
}

const paramIds: Record<ConsentKind, { title: GrantorParamId; text: GrantorParamId; version: GrantorParamId }> = {
  clausula: { title: 'TITULO_CLAUSULA', text: 'TEXTO_CLAUSULA', version: 'VERSION_CLAUSULA' },
  autorizacion: { title: 'TITULO_AUTORIZACION', text: 'TEXTO_AUTORIZACION', version: 'VERSION_AUTORIZACION' },
};

/** The document of a consent from the grantor's parameters, with the placeholders of /terminos filled in. */
export function consentDocument(params: readonly GrantorParam[] | null, kind: ConsentKind, userName: string | null): ConsentDocument {
  const ids = paramIds[kind];
  const values = { grantor: grantorLegalName(params), user: userName ?? texts.userFallback };
  return {
    title: fillPlaceholders(paramValue(params, ids.title), values),
    text: fillPlaceholders(paramValue(params, ids.text), values),
    version: paramValue(params, ids.version),
  };
}
