/**
 * Grantor parameters (docs/flow.md §3 "Grantor config"): a list of {idCampo, valor}.
 * Values are strings on the wire, exactly as the spec's flags are compared ('true', 'FALSO', '3').
 * Fields marked "project" are not named by the spec: they turn the spec's
 * "one specific grantor" behaviours into configuration (DESIGN.md, wire conventions).
 */
export const grantorParamDefaults = {
  COLOR_PRIMARIO: '#0B4F8A',
  COLOR_SECUNDARIO: '#E8F0F8',
  COLOR_ACENTUACION: '#F2A900',
  COLOR_DE_TEXTO: '#1B1B1F',
  LOGO_OTORGANTE: '',
  APIKEY: '',
  EMAIL_CONTACTO_PRINCIPAL: '',
  TEL_CONTACTO_PRINCIPAL: '',
  ID_OTORGANTE: '',
  NOMBRE_CORTO: '',
  RAZON_SOCIAL: '',
  CIUDAD_LEGAL_DEL_OTORGANTE: '',
  PARTNER: '',
  ENABLE_SEND_MAIL: 'true',
  SEND_ZIP_SEMAFORO: 'false',
  ENABLE_RENAPO: 'true',
  ENABLE_INE: 'true',
  ENABLE_CONSENTIMIENTO_1: 'true',
  ENABLE_CONSENTIMIENTO_2: 'true',
  ENABLE_CONSENTIMIENTO_3: 'true',
  REQ_ACEPTACION_DE_DATOS: 'VERDADERO',
  REQ_MEDIOS_ELECTRONICOS: 'VERDADERO',
  ICONO_ID_CHECK: '',
  INTENTOS_ID_FRONTAL: '3',
  INTENTOS_ID_REVERSO: '3',
  INTENTOS_VIDEO_TOKEN: '3',
  // project: consent 1 (/terminos) title, text and version; {OTORGANTE}, {USUARIO}, {enter} placeholders.
  TITULO_TERMINOS: 'Aviso de privacidad',
  TEXTO_TERMINOS:
    '{OTORGANTE} tratará tus datos personales únicamente para verificar tu identidad y dar trámite a tu solicitud.{enter}Al aceptar autorizas la captura de tu identificación oficial, de tu comprobante de domicilio y de un video de tu rostro, que se conservan cifrados en la infraestructura de {OTORGANTE} y no se comparten con terceros sin tu consentimiento.{enter}Puedes ejercer tus derechos de acceso, rectificación, cancelación y oposición con los datos de contacto que aparecen en esta página.',
  VERSION_TERMINOS: '1',
  // project: consent 2, the clause on electronic means (/validacion_documento): title, text and version;
  // placeholders {OTORGANTE}, {USUARIO}, {enter}. The server's clause PDF uses the same parameters.
  TITULO_CLAUSULA: 'Cláusula de medios electrónicos',
  TEXTO_CLAUSULA:
    'Por medio de este documento, {USUARIO} acepta que {OTORGANTE} utilice medios electrónicos para la celebración de su solicitud y de los actos que de ella deriven.{enter}La identificación oficial, la fotografía, el video y los demás datos capturados en este proceso, así como la aceptación que se registra en este documento, sustituyen a la firma autógrafa y producen los mismos efectos que los documentos firmados en papel, conforme al Código de Comercio y a las disposiciones aplicables.{enter}Asimismo, {USUARIO} reconoce que la aceptación queda registrada con la fecha, la hora y la dirección desde la que se realiza, y que puede solicitar a {OTORGANTE} una copia de este documento.',
  VERSION_CLAUSULA: '1',
  // project: consent 3, the authorization (/autorizacion_documento): title, text and version; same placeholders.
  // The server's authorization PDF uses the same parameters.
  TITULO_AUTORIZACION: 'Autorización para consultar tu información',
  TEXTO_AUTORIZACION:
    'Por medio de este documento, {USUARIO} autoriza a {OTORGANTE} a verificar la autenticidad de su identificación oficial y de los datos que proporcionó, y a consultar su información crediticia ante las sociedades de información crediticia que estime convenientes.{enter}Asimismo, {USUARIO} declara conocer la naturaleza y el alcance de la información que se solicitará, el uso que {OTORGANTE} hará de ella y que podrán realizarse consultas periódicas de su historial crediticio.{enter}Esta autorización tiene una vigencia de tres años a partir de su aceptación y, en todo caso, se mantiene mientras exista una relación jurídica entre {OTORGANTE} y {USUARIO}.',
  VERSION_AUTORIZACION: '1',
  // project: the spec's DNI variant (DNI instead of CURP, DNI-only instructions, country prefix 51).
  VARIANTE_DNI: 'false',
  // project: the help button on the entry page ('Estamos para ti').
  MOSTRAR_AYUDA: 'true',
  // project: chat link of the help overlay; {folio} is replaced by the short process folio.
  URL_CHAT: '',
  // project: contact phone and e-mail on the final failure screens.
  CONTACTO_EN_FALLA: 'false',
  // project: the full result in the opener message, and the document fetch before finishing.
  RESULTADO_COMPLETO_OPENER: 'false',
  // project: the credit-history consent (/consulta_historial) after the face match.
  ENABLE_CONSULTA_HISTORIAL: 'false',
  // project: title, text and version of the credit-history consent; {OTORGANTE}, {USUARIO}, {enter} placeholders.
  TITULO_CONSULTA_HISTORIAL: 'Autorización para consultar tu historial crediticio',
  TEXTO_CONSULTA_HISTORIAL:
    'Autorizo expresamente a {OTORGANTE} para que lleve a cabo investigaciones sobre mi comportamiento crediticio en las Sociedades de Información Crediticia que estime conveniente.{enter}Declaro que conozco la naturaleza y alcance de la información que se solicitará, del uso que {OTORGANTE} hará de ella y de que podrá realizar consultas periódicas de mi historial crediticio.{enter}Consiento que esta autorización tenga una vigencia de tres años contados a partir de hoy y, en su caso, mientras mantengamos una relación jurídica.',
  VERSION_CONSULTA_HISTORIAL: '1',
  // project: partner origins allowed to use the launcher (comma-separated, e.g. https://tienda.example); empty: any.
  ORIGENES_LAUNCHER: '',
  // project: face video path: 'grabacion' (MediaRecorder upload) or 'tiempo_real' (WebRTC).
  MODO_VIDEO_TOKEN: 'grabacion',
  // project: the help phone on the expired-link page (spec: "a hard-coded phone number").
  TEL_AYUDA_ENLACE: '',
  // project: scoring (query_score): the minimum face similarity 0..1 ('' = the face engine's own threshold).
  SCORE_SIMILITUD_MINIMA: '',
  // project: scoring: rules whose missing or unchecked evidence does not lower the flag (comma-separated; docs/decisions.md).
  SCORE_REGLAS_OPCIONALES: 'codigo_hablado',
  // project: scoring: rules whose failure or missing evidence is RED instead of YELLOW (comma-separated).
  SCORE_REGLAS_ESTRICTAS: '',
  // project: hours a result link (/pdf_token) stays valid.
  HORAS_VIGENCIA_ENLACE: '72',
  // project: a proof of address is at most this many months old to count as recent (read from the bill).
  MESES_VIGENCIA_COMPROBANTE: '3',
  // project: the proof-of-address capture (/preparacion_comprobante) between the ID results and the address form.
  REQ_COMPROBANTE_DOMICILIO: 'false',
  // project: hologram calibration (id_calibrate): least share of the card swept by moving highlights (0-1).
  UMBRAL_HOLOGRAMA: '0.05',
  // project: face match threshold, similarity (0-1, faceSimilarity of the ensemble descriptor) of the video's face and
  // the ID photo (spec leaves it open; calibrated for at most 0.1 % false accepts on real photos of the same people on
  // different days, see docs/decisions.md "Face match calibrated on real photos").
  UMBRAL_ROSTRO: '0.825',
  // project: the face video is refused when the browser names a known virtual camera (OBS Virtual Camera, ManyCam,
  // Snap Camera, XSplit VCam, e2eSoft VCam, CamTwist, any "Virtual" camera...); the label is recorded either way.
  RECHAZAR_CAMARA_VIRTUAL: 'false',
  // project: the recorded face video is refused when its container or encoder is not what a browser's
  // MediaRecorder writes (e.g. a file muxed by ffmpeg); the check is recorded either way (docs/decisions.md).
  RECHAZAR_VIDEO_NO_NAVEGADOR: 'false',
  // project: an accepted face video whose reading repeats, to the sound window, one already accepted for the same
  // holder (this transaction or another with the same CURP) is refused as a replay; found either way and recorded
  // (docs/decisions.md "A reading replayed from an earlier session").
  RECHAZAR_LECTURA_REPETIDA: 'true',
  // project: motion prompts in the face video (0 = none, 1 or 2): after the digits, the person is asked to turn
  // the head to a random side, checked from the tracked face (docs/decisions.md "Motion prompts").
  MOVIMIENTOS_VIDEO_TOKEN: '0',
} as const;

export type GrantorParamId = keyof typeof grantorParamDefaults;
export const grantorParamIds = Object.keys(grantorParamDefaults) as GrantorParamId[];

export interface GrantorParam {
  idCampo: string;
  valor: string;
}

/** Parameters that only the grantor's own key may read: never sent by the public endpoint. */
export const privateGrantorParamIds: ReadonlySet<string> = new Set(['APIKEY']);

export function paramValue(list: readonly GrantorParam[] | null | undefined, id: GrantorParamId): string {
  const found = list?.find((p) => p.idCampo === id);
  return found ? found.valor : grantorParamDefaults[id];
}

/** Spec §5: 'FALSO' (and 'false') means disabled; anything else present means enabled. */
export function paramEnabled(list: readonly GrantorParam[] | null | undefined, id: GrantorParamId): boolean {
  const value = paramValue(list, id).trim().toLowerCase();
  return value !== 'falso' && value !== 'false' && value !== '0' && value !== '';
}

/**
 * Whether the grantor asks for a consent at all (docs/flow.md §2 /terminos, Clause and authorization): a consent
 * switched off is skipped by the flow and not required by the server before the calls that follow it.
 */
export function consentAsked(consent: 'terminos' | 'clausula' | 'autorizacion', list: readonly GrantorParam[] | null | undefined): boolean {
  switch (consent) {
    case 'terminos':
      return paramEnabled(list, 'ENABLE_CONSENTIMIENTO_1') && paramEnabled(list, 'REQ_ACEPTACION_DE_DATOS');
    case 'clausula':
      return paramEnabled(list, 'ENABLE_CONSENTIMIENTO_2') && paramEnabled(list, 'REQ_MEDIOS_ELECTRONICOS');
    case 'autorizacion':
      return paramEnabled(list, 'ENABLE_CONSENTIMIENTO_3');
  }
}

export function paramInt(list: readonly GrantorParam[] | null | undefined, id: GrantorParamId): number {
  const parsed = Number.parseInt(paramValue(list, id), 10);
  const fallback = Number.parseInt(grantorParamDefaults[id], 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}
