import { randomUUID } from 'node:crypto';

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
