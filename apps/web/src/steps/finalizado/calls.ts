import { api } from '../../api/calls';
import type { EmailRequest } from './email';

/** GET query_score/{user id}/{transaction id}?isDesktop&generate=true (docs/flow.md §7). */
export async function queryScore(ids: { uuidUser: string; uuidTrx: string }, isDesktop: boolean, signal?: AbortSignal): Promise<{ flag?: unknown; Fields?: unknown }> {
  // The screen checks flag and Fields itself (score.ts): the client does not validate answers.
  const response = await api().request('queryScore', {
    step: 'score_check',
    params: ids,
    query: { isDesktop: String(isDesktop), generate: 'true' },
    ...(signal ? { signal } : {}),
  });
  return response.payload ?? {};
}

/** POST async_zip_nom_151_correo: queues the result e-mail. */
export function emailResult(request: EmailRequest): Promise<unknown> {
  return api().request('emailResult', { step: 'email_check', body: request });
}

/** POST proccessdocuments: the clause, authorization and report PDFs; returns payload.links. */
export async function processDocuments(uuidUser: string): Promise<Record<string, string>> {
  const response = await api().request('processDocuments', {
    step: 'finalizado',
    body: { uuidUser },
  });
  return response.payload?.links ?? {};
}

/** POST nom_151: the evidence bundle with a time-stamp token (only when SEND_ZIP_SEMAFORO). */
export function sendBundle(body: unknown): Promise<unknown> {
  return api().request('nom151', { step: 'finalizado', body });
}
