import { randomUUID } from 'node:crypto';
import type { ZodApp } from '../../src/http/deps.js';

export const demoKey = 'demo';
export const demoId = '00000000-0000-4000-8000-000000000001';

export function trxHeaders(apikey: string = demoKey, ids: { transaccion?: string; cliente?: string } = {}) {
  return { apikey, transaccion: ids.transaccion ?? randomUUID(), cliente: ids.cliente ?? randomUUID() };
}

export function lifecycleEvent(headers: { transaccion: string; cliente: string }, overrides: Record<string, unknown> = {}) {
  return {
    trx_id: headers.transaccion,
    company_id: demoId,
    client_id: headers.cliente,
    step: 'terminos',
    event: JSON.stringify({ status: 'OK', step: 'terminos', description: 'Aceptó el aviso de privacidad' }),
    origin: 'celd',
    nombreOtorgante: 'Financiera Demo',
    nombreCompleto: 'María Fernanda Núñez Zúñiga',
    telefono: '5512345678',
    correoElectronico: 'maria.nunez@correo.example',
    ...overrides,
  };
}

export function auditEvent(headers: { transaccion: string; cliente: string; apikey?: string }, overrides: Record<string, unknown> = {}) {
  return {
    uuid_clt: headers.cliente,
    uuid_trx: headers.transaccion,
    uuid_oto: demoId,
    apikey: headers.apikey,
    paso: 'identificacion',
    tipo: 'Error',
    dato: 'No se pudo leer correctamente tus datos de Ramírez Olvera',
    finished: false,
    time_stamp: new Date().toISOString(),
    ...overrides,
  };
}

/**
 * A journey started as its browser starts it: GET /v1/params creates the transaction and issues its token, which
 * the browser then sends as X-Transaction-Token on the calls that answer the person's data (issue #15).
 */
export async function startedTransaction(app: { inject: ZodApp['inject'] }, apikey: string = demoKey) {
  const headers = trxHeaders(apikey);
  const res = await app.inject({ method: 'GET', url: '/v1/params', headers });
  const token = res.headers['x-transaction-token'];
  if (res.statusCode !== 200 || typeof token !== 'string') throw new Error(`GET /v1/params issued no transaction token (${res.statusCode})`);
  return { ...headers, 'x-transaction-token': token };
}
