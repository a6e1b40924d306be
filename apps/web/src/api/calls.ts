import { paramValue } from '@kyc/contracts/params';
import { errorTexts } from '@kyc/contracts/texts';
import { currentGrantorParams, isGrantorParamList, type GrantorParams } from '../session/grantor';
import { readSession } from '../session/session';
import { sessionState } from '../session/storage';
import { reportBusyWait } from './busy';
import { ApiError, createApiClient, type ApiClient, type AuditType } from './client';

let shared: ApiClient | null = null;

/** The app's client: same-origin relative URLs, identity headers from the browser state. */
export function api(): ApiClient {
  shared ??= createApiClient({
    fetch: (input, init) => fetch(input, init),
    session: () => readSession(),
    keepTransactionToken: (token) => sessionState().set('transactionToken', token),
    onBusy: (wait) => reportBusyWait(wait),
  });
  return shared;
}

/** The payload checked before it becomes the grantor's parameters (answers are not validated by the client). */
function paramsOf(envelope: { payload: unknown } | null): GrantorParams {
  if (!envelope || !isGrantorParamList(envelope.payload)) {
    throw new ApiError('grantorParams', 200, 'grantor parameters payload is not a parameter list');
  }
  return envelope.payload;
}

/** GET /v1/params with the session's identity headers. */
export async function fetchGrantorParams(step: string, signal?: AbortSignal): Promise<GrantorParams> {
  const options = signal ? { step, signal } : { step };
  return paramsOf(await api().request('grantorParams', options));
}

/** GET /v1/public/params/:idOtorgante (no key): branding for the result-link flow. */
export async function fetchPublicGrantorParams(idOtorgante: string, step: string, signal?: AbortSignal): Promise<GrantorParams> {
  const options = { step, params: { idOtorgante }, identify: false, ...(signal ? { signal } : {}) };
  return paramsOf(await api().request('publicGrantorParams', options));
}

/** Why a result link cannot be consulted any more, or null when it can (GET /v1/public/link_status). */
export type LinkRefusal = 'consumed' | 'expired' | null;

export async function checkLinkStatus(linkToken: string, step: string, signal?: AbortSignal): Promise<LinkRefusal> {
  try {
    await api().request('linkStatus', { step, identify: false, headers: { 'X-Consumer-Custom-ID': linkToken }, ...(signal ? { signal } : {}) });
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 410) return error.messageClient === errorTexts.linkConsumed ? 'consumed' : 'expired';
    throw error;
  }
}

export interface LifecycleUpdate {
  step: string;
  status: string;
  description: string;
}

/** POST update_cycle, only while completado is the string 'false' (docs/flow.md §4). Resolves false when skipped. */
export async function sendLifecycle(update: LifecycleUpdate): Promise<boolean> {
  const session = readSession();
  if (session.completado !== 'false') return false;
  const nombreOtorgante = paramValue(currentGrantorParams(), 'NOMBRE_CORTO');
  await api().request('updateCycle', {
    step: update.step,
    body: {
      trx_id: session.uuidTrx,
      company_id: session.idOtorgante ?? '',
      client_id: session.uuidUser,
      step: update.step,
      event: JSON.stringify({ status: update.status, step: update.step, description: update.description }),
      origin: 'celd',
      ...(nombreOtorgante ? { nombreOtorgante } : {}),
    },
  });
  return true;
}

export function sendAudit(paso: string, tipo: AuditType, dato: string, finished = false): Promise<void> {
  return api().audit(paso, tipo, dato, finished);
}
