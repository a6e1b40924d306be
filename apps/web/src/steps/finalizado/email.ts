import { paramValue, type GrantorParam } from '@kyc/contracts/params';
import { folioOf } from '@kyc/contracts/state';
import type { OcrRecord } from '../../session/idCapture';
import type { UserDatum } from '../../session/userData';
import type { ScoreFlag, ScoreRule } from './score';

/** ddmmyyyy in Mexico City, the grantor's legal time zone (the server computes its own copy the same way). */
export function ddmmyyyy(date: Date, timeZone = 'America/Mexico_City'): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}${part('month')}${part('year')}`;
}

/** Spec §3 "Custom id": partner (spaces turned to _) + short name + date ddmmyyyy + first segment of the user id. */
export function customUuid(params: readonly GrantorParam[] | null, uuidUser: string, now: Date): string {
  const partner = paramValue(params, 'PARTNER').replaceAll(' ', '_');
  const shortName = paramValue(params, 'NOMBRE_CORTO');
  return `${partner}${shortName}${ddmmyyyy(now)}${folioOf(uuidUser)}`;
}

/** The nom_151 evidence-bundle body (docs/flow.md §7, only when SEND_ZIP_SEMAFORO): the e-mail request's shared fields. */
export function bundleRequest(request: EmailRequest, links: Record<string, string> | null) {
  return {
    uuidUser: request.uuidUser,
    custom_uuid: request.custom_uuid,
    ...(request.ocrBack ? { ocrBack: request.ocrBack } : {}),
    ...(request.ocrFront ? { ocrFront: request.ocrFront } : {}),
    data_user: request.data_user,
    ...(links ? { links } : {}),
    email: request.email,
    tipo_envio: request.tipo_envio,
    semaforo: request.semaforo,
  };
}

/** Spec §4 "Sending result": GREEN sends tipo_envio COMPLETO; others SEMAFORO. */
export function tipoEnvio(flag: ScoreFlag): 'COMPLETO' | 'SEMAFORO' {
  return flag === 'GREEN' ? 'COMPLETO' : 'SEMAFORO';
}

/** "Finished event status OK, or FAIL when YELLOW" (also the opener's result). */
export function finishedStatus(flag: ScoreFlag): 'OK' | 'FAIL' {
  return flag === 'GREEN' ? 'OK' : 'FAIL';
}

export interface EmailInput {
  flag: ScoreFlag;
  email: string;
  uuidUser: string;
  params: readonly GrantorParam[] | null;
  dataUser: readonly UserDatum[];
  ocrFront: OcrRecord | null;
  ocrBack: OcrRecord | null;
  detailsScore: readonly ScoreRule[];
  /** The face result (match, liveness) stored after the video, sent as coincidencia. */
  face: unknown;
  originOS: string;
  now: Date;
}

/** The Email request body of docs/flow.md §3 (async_zip_nom_151_correo). */
export interface EmailRequest {
  tipo_envio: 'COMPLETO' | 'SEMAFORO';
  semaforo: 'green' | 'yellow' | 'red';
  uuidUser: string;
  name: string;
  email: string;
  fNac?: string;
  curp?: string;
  vigencia?: string;
  ocrFront?: OcrRecord;
  ocrBack?: OcrRecord;
  data_user: UserDatum[];
  detailsScore: ScoreRule[];
  custom_uuid: string;
  originOS: string;
  coincidencia?: unknown;
}

function datum(data: readonly UserDatum[], ...names: string[]): string | undefined {
  for (const name of names) {
    const value = data.find((d) => d.description === name)?.value.trim();
    if (value) return value;
  }
  return undefined;
}

export function buildEmailRequest(input: EmailInput): EmailRequest {
  const { dataUser } = input;
  const request: EmailRequest = {
    tipo_envio: tipoEnvio(input.flag),
    semaforo: input.flag.toLowerCase() as EmailRequest['semaforo'],
    uuidUser: input.uuidUser,
    name: datum(dataUser, 'nombreCompleto', 'nombre') ?? '',
    email: input.email.trim(),
    data_user: [...dataUser],
    detailsScore: [...input.detailsScore],
    custom_uuid: customUuid(input.params, input.uuidUser, input.now),
    originOS: input.originOS,
  };
  const fNac = datum(dataUser, 'nacimiento');
  // "curp (DNI for some grantors)": whichever identifier the results form saved.
  const curp = datum(dataUser, 'curp', 'dni');
  const vigencia = datum(dataUser, 'vigencia');
  if (fNac) request.fNac = fNac;
  if (curp) request.curp = curp;
  if (vigencia) request.vigencia = vigencia;
  if (input.ocrFront) request.ocrFront = input.ocrFront;
  if (input.ocrBack) request.ocrBack = input.ocrBack;
  if (input.face !== null && input.face !== undefined) request.coincidencia = input.face;
  return request;
}
