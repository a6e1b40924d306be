import { grantorParamDefaults, grantorParamIds, privateGrantorParamIds, type GrantorParam } from '@kyc/contracts';

/** Parameters derived by the service, never stored: the api key (hashed elsewhere) and the grantor id. */
export const managedParamIds: ReadonlySet<string> = new Set(['APIKEY', 'ID_OTORGANTE']);

export const paramIdPattern = /^[A-Z][A-Z0-9_]{0,63}$/;
export const maxParamValueLength = 20_000;

const knownIds: ReadonlySet<string> = new Set(grantorParamIds);

export function isKnownParamId(id: string): boolean {
  return knownIds.has(id);
}

interface GrantorIdentity {
  id: string;
  name: string;
}

/**
 * Every parameter of docs/flow.md §3 in the contracts' order with stored values over the defaults, then any extra
 * stored parameters (sorted). ID_OTORGANTE is the grantor id; NOMBRE_CORTO and RAZON_SOCIAL fall back to
 * the grantor's name; APIKEY is `apiKey` (the caller's own key) and is left out when `apiKey` is undefined.
 */
export function effectiveParams(grantor: GrantorIdentity, stored: Readonly<Record<string, string>>, apiKey?: string): GrantorParam[] {
  const nonEmpty = (id: string) => (stored[id]?.trim() ? stored[id] : undefined);
  const derived: Record<string, string | undefined> = {
    APIKEY: apiKey,
    ID_OTORGANTE: grantor.id,
    NOMBRE_CORTO: nonEmpty('NOMBRE_CORTO') ?? grantor.name,
    RAZON_SOCIAL: nonEmpty('RAZON_SOCIAL') ?? grantor.name,
  };
  const list: GrantorParam[] = [];
  for (const id of grantorParamIds) {
    if (id in derived) {
      const value = derived[id];
      if (value !== undefined) list.push({ idCampo: id, valor: value });
      continue;
    }
    list.push({ idCampo: id, valor: stored[id] ?? grantorParamDefaults[id] });
  }
  const extras = Object.keys(stored)
    .filter((id) => !knownIds.has(id) && !managedParamIds.has(id))
    .sort();
  for (const id of extras) list.push({ idCampo: id, valor: stored[id] ?? '' });
  return list;
}

/** The parameters for the grantor's own api key: everything, with APIKEY echoing the caller's key. */
export function ownerParams(grantor: GrantorIdentity, stored: Readonly<Record<string, string>>, apiKey: string): GrantorParam[] {
  return effectiveParams(grantor, stored, apiKey);
}

/** The parameters anyone may read (branding for the result-link flow): no private ones. */
export function publicParams(grantor: GrantorIdentity, stored: Readonly<Record<string, string>>): GrantorParam[] {
  return effectiveParams(grantor, stored).filter((p) => !privateGrantorParamIds.has(p.idCampo));
}

const flagValues = new Set(['true', 'false', 'verdadero', 'falso']);
const flagIds: ReadonlySet<string> = new Set(grantorParamIds.filter((id) => flagValues.has(grantorParamDefaults[id].toLowerCase())));

/**
 * Checks a value an operator wants to store; returns the problem, or null when the value is acceptable.
 * Images must be data: URIs or same-origin paths because the flow runs under img-src 'self' data: blob:.
 */
export function paramValueProblem(id: string, value: string): string | null {
  if (!paramIdPattern.test(id)) return `${id} is not a parameter name (upper case letters, digits and _)`;
  if (managedParamIds.has(id)) {
    return id === 'APIKEY' ? 'APIKEY is managed by the service: use rotate-key' : `${id} is the grantor id and cannot be set`;
  }
  if (value.length > maxParamValueLength) return `${id} is longer than ${maxParamValueLength} characters`;
  if (value === '') return null;
  if (id.startsWith('COLOR_') && !/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value)) {
    return `${id} must be a colour like #0B4F8A`;
  }
  if (id.startsWith('INTENTOS_') && !/^[1-9]\d{0,2}$/.test(value)) return `${id} must be a whole number from 1 to 999`;
  if (flagIds.has(id) && !flagValues.has(value.toLowerCase())) {
    return `${id} must be true, false, VERDADERO or FALSO`;
  }
  if ((id === 'LOGO_OTORGANTE' || id === 'ICONO_ID_CHECK') && !/^(data:image\/(png|jpeg|webp|gif|svg\+xml)[;,]|\/[^/])/.test(value)) {
    return `${id} must be a data:image/... URI or a path on this server (external images are blocked by the CSP)`;
  }
  if (id.startsWith('EMAIL_') && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return `${id} must be an e-mail address`;
  if (id.startsWith('URL_') && !/^https:\/\/\S+$/.test(value)) return `${id} must be an https:// URL`;
  if (id === 'ORIGENES_LAUNCHER' && !value.split(',').every((item) => /^https?:\/\/[^/\s]+$/.test(item.trim()))) {
    return 'ORIGENES_LAUNCHER must be comma-separated origins like https://tienda.example';
  }
  if (id === 'UMBRAL_ROSTRO' && !/^(0(\.\d{1,4})?|1(\.0{1,4})?)$/.test(value)) return 'UMBRAL_ROSTRO must be a number from 0 to 1 (e.g. 0.75)';
  if (id === 'MOVIMIENTOS_VIDEO_TOKEN' && !/^[0-2]$/.test(value)) return 'MOVIMIENTOS_VIDEO_TOKEN must be 0, 1 or 2 (head turns asked in the face video)';
  if (id === 'MODO_VIDEO_TOKEN' && value !== 'grabacion' && value !== 'tiempo_real') {
    return "MODO_VIDEO_TOKEN must be 'grabacion' or 'tiempo_real'";
  }
  if (id.startsWith('UMBRAL_') && !/^(0(\.\d+)?|1(\.0+)?)$/.test(value)) return `${id} must be a number from 0 to 1`;
  return null;
}
