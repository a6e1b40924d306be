import { isUuid, previousJourneyKeys } from '../../session/start';
import type { StateStorage } from '../../session/storage';

/** The result link's query (docs/flow.md §2 /pdf_token): uuid, idOtorgante, fecha (expiry, epoch ms), uuidTrx. */
export interface LinkQuery {
  uuid: string;
  idOtorgante: string;
  /** Epoch ms, as given. */
  fecha: string;
  /** Absent when coming back from a cancelled link-flow video (the cancel route carries only the other three). */
  uuidTrx: string | null;
  /** The link credential (project: sent as X-Consumer-Custom-ID by the face video); absent like uuidTrx. */
  token: string | null;
}

/** null when the link is unusable: uuid not a uuid, no idOtorgante, fecha not an epoch-ms number. */
export function parseLinkQuery(search: string): LinkQuery | null {
  const query = new URLSearchParams(search);
  const uuid = query.get('uuid')?.trim().toLowerCase() ?? '';
  const idOtorgante = query.get('idOtorgante')?.trim() ?? '';
  const fecha = query.get('fecha')?.trim() ?? '';
  const uuidTrx = query.get('uuidTrx')?.trim().toLowerCase() ?? '';
  const token = query.get('token')?.trim() ?? '';
  if (!isUuid(uuid) || !idOtorgante || idOtorgante.length > 100 || !/^\d{1,15}$/.test(fecha)) return null;
  return { uuid, idOtorgante, fecha, uuidTrx: isUuid(uuidTrx) ? uuidTrx : null, token: /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token) && token.length <= 2000 ? token : null };
}

/** Spec §4 "Result link: expires when current time is past fecha." */
export function isLinkExpired(fecha: string | null, now: number): boolean {
  const expiry = Number(fecha);
  return Boolean(fecha) && Number.isFinite(expiry) && now > expiry;
}

/** The expiry in long Mexican Spanish (docs/flow.md §9 "Dates shown in es-MX long form"), with its time of day. */
export function longDateTime(epochMs: number, timeZone?: string): string {
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  };
  return new Intl.DateTimeFormat('es-MX', options).format(new Date(epochMs));
}

/** The stored expiry as a long date, or null when none is stored. */
export function expiryLabel(fecha: string | null, timeZone?: string): string | null {
  const expiry = Number(fecha);
  return fecha && Number.isFinite(expiry) ? longDateTime(expiry, timeZone) : null;
}

export type LinkBrowser = 'ok' | 'useSafari' | 'useChromeOrEdge';

export interface LinkBrowserEnvironment {
  userAgent: string;
  ios: boolean;
  hasGetUserMedia: boolean;
  hasMediaRecorder: boolean;
}

/**
 * The link flow records a face video: it needs the camera and a recorder. Spec §2: the incompatible-browser
 * panels suggest Chrome or Edge, or Safari on iOS (other iOS browsers lack the recorder on older systems).
 */
export function linkBrowserSupport(env: LinkBrowserEnvironment): LinkBrowser {
  if (env.ios) {
    const otherIosBrowser = /CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(env.userAgent);
    return otherIosBrowser || !env.hasGetUserMedia || !env.hasMediaRecorder ? 'useSafari' : 'ok';
  }
  return env.hasGetUserMedia && env.hasMediaRecorder ? 'ok' : 'useChromeOrEdge';
}

/**
 * "clears local storage and stores them": the previous journey's keys go (the one-hour lock stays, as at the
 * entry route); uuid becomes uuidUser, fecha fechavigencia. A link without uuidTrx keeps the one this link
 * already used (back from a cancelled video), else gets a new one; the same link and transaction keep their attempts.
 */
export function beginLinkJourney(link: LinkQuery, storage: StateStorage, randomUUID: () => string): void {
  const sameLink = storage.get('uuidUser') === link.uuid;
  const previousTrx = storage.get('uuidTrx');
  const previousToken = storage.get('linkToken');
  const uuidTrx = link.uuidTrx ?? (sameLink && isUuid(previousTrx) ? previousTrx : randomUUID());
  // The same link and transaction again (restarted after failed face videos, cancelled, reopened): its attempts
  // stay, as the server's count does (docs/flow.md §9: 5 in all for the link flow).
  const keptAttempts = sameLink && uuidTrx === previousTrx ? storage.get('intentsData') : null;
  for (const key of previousJourneyKeys) storage.remove(key);
  if (keptAttempts !== null) storage.set('intentsData', keptAttempts);
  storage.set('uuidUser', link.uuid);
  storage.set('uuidTrx', uuidTrx);
  storage.set('idOtorgante', link.idOtorgante);
  storage.set('uuidOtorgante', link.idOtorgante);
  storage.set('fechavigencia', link.fecha);
  storage.set('completado', 'false');
  const token = link.token ?? (sameLink ? previousToken : null);
  if (token) storage.set('linkToken', token);
}
