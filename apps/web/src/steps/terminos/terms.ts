import { paramValue, type GrantorParam, type GrantorParamId } from '@kyc/contracts/params';
import { texts } from '../../i18n/es-MX/terminos';

export interface TermsDocument {
  title: string;
  /** Legal city and date, e.g. 'Ciudad de México, a 26 de noviembre de 2026'. */
  dateLine: string;
  /** The text shown and accepted, {enter} already turned into '\n'. */
  text: string;
  version: string;
}

/** Spec §2 /terminos placeholders: {OTORGANTE}, {USUARIO} and {enter} (line break). */
export function fillPlaceholders(template: string, values: { grantor: string; user: string }): string {
  return template.replaceAll('{OTORGANTE}', values.grantor).replaceAll('{USUARIO}', values.user).replaceAll('{enter}', '\n');
}

/** Dates in es-MX long form (docs/flow.md §9), e.g. '26 de noviembre de 2026'. */
export function longDate(date: Date): string {
  return new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric' }).format(date);
}

/** A legal text names the legal entity: the razón social first, the short name only when it is missing. */
export function grantorLegalName(params: readonly GrantorParam[] | null): string {
  return paramValue(params, 'RAZON_SOCIAL').trim() || paramValue(params, 'NOMBRE_CORTO').trim() || texts.grantorFallback;
}

/** A dated legal document (title, legal city and date, text, version) from three grantor parameters. */
export function datedDocument(
  params: readonly GrantorParam[] | null,
  ids: { title: GrantorParamId; text: GrantorParamId; version: GrantorParamId },
  userName: string | null,
  now: Date,
): TermsDocument {
  const grantor = grantorLegalName(params);
  const values = { grantor, user: userName ?? texts.userFallback };
  return {
    title: fillPlaceholders(paramValue(params, ids.title), values),
    dateLine: texts.dateLine(paramValue(params, 'CIUDAD_LEGAL_DEL_OTORGANTE').trim(), longDate(now)),
    text: fillPlaceholders(paramValue(params, ids.text), values),
    version: paramValue(params, ids.version),
  };
}

export function termsDocument(params: readonly GrantorParam[] | null, userName: string | null, now: Date): TermsDocument {
  return datedDocument(params, { title: 'TITULO_TERMINOS', text: 'TEXTO_TERMINOS', version: 'VERSION_TERMINOS' }, userName, now);
}

/** SHA-256 of the UTF-8 text, lowercase hex (crypto.subtle). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
