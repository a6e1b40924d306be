import type { ScoreFlag } from './score.js';

/**
 * Spec §4 "Sending result" and §3 "Custom id", as pure functions.
 */
export type TipoEnvio = 'COMPLETO' | 'SEMAFORO';
export type Semaforo = 'green' | 'yellow' | 'red';

/** GREEN sends COMPLETO; every other flag SEMAFORO. */
export function tipoEnvio(flag: ScoreFlag): TipoEnvio {
  return flag === 'GREEN' ? 'COMPLETO' : 'SEMAFORO';
}

/** The semaphore is sent lowercase. */
export function semaforo(flag: ScoreFlag): Semaforo {
  return flag.toLowerCase() as Semaforo;
}

export function flagOfSemaforo(value: Semaforo): ScoreFlag {
  return value.toUpperCase() as ScoreFlag;
}

/** tipo_envio and semaforo of one request agree (COMPLETO exactly with green). */
export function consistentSending(tipo: TipoEnvio, light: Semaforo): boolean {
  return tipo === tipoEnvio(flagOfSemaforo(light));
}

/** ddmmyyyy of the date in Mexico City (the grantor's legal time zone). */
export function ddmmyyyy(date: Date, timeZone = 'America/Mexico_City'): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('day')}${get('month')}${get('year')}`;
}

/** partner (spaces turned to _) + short name + date ddmmyyyy + first segment of the user id. */
export function customId(parts: { partner: string; shortName: string; date: Date; uuidUser: string }): string {
  const firstSegment = parts.uuidUser.split('-')[0] ?? parts.uuidUser;
  return `${parts.partner.replaceAll(' ', '_')}${parts.shortName}${ddmmyyyy(parts.date)}${firstSegment}`;
}
