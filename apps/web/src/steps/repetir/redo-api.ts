import { redoPaths, redoTokenHeader } from '@kyc/contracts/redo-routes';

export type RedoStep = 'id' | 'proof' | 'face';
export type RedoPart = 'front' | 'back' | 'proof';

export interface RedoLink {
  step: RedoStep;
  idOtorgante: string;
  expiresAt: string;
}

/** A refusal of the service with its Spanish text (or none when it could not be reached: status 0). */
export class RedoError extends Error {
  override name = 'RedoError';
  constructor(
    readonly status: number,
    readonly text: string | undefined,
  ) {
    super(`redo call refused: ${status}`);
  }
}

/** The link's credential from the page's query, when it looks like one. */
export function redoTokenOf(search: string): string | null {
  const token = new URLSearchParams(search).get('token')?.trim() ?? '';
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token) && token.length <= 2000 ? token : null;
}

/** The photos each step captures, in order: both sides of the ID, or the proof (the face is a video: RedoFace). */
export const partsOf: Record<RedoStep, readonly RedoPart[]> = { id: ['front', 'back'], proof: ['proof'], face: [] };

export async function call<T>(token: string, method: 'GET' | 'POST', path: string, body?: FormData, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { method, headers: { [redoTokenHeader]: token }, ...(body ? { body } : {}), ...(signal ? { signal } : {}) });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new RedoError(0, undefined);
  }
  const json = (await response.json().catch(() => ({}))) as T & { message_client?: string };
  if (!response.ok) throw new RedoError(response.status, json.message_client);
  return json;
}

export const fetchRedoLink = (token: string, signal?: AbortSignal) => call<RedoLink>(token, 'GET', redoPaths.status, undefined, signal);

/** One capture: a side of the ID or the proof, as a JPEG. */
export function sendRedoPart(token: string, part: RedoPart, image: Blob, signal?: AbortSignal): Promise<unknown> {
  const form = new FormData();
  if (part !== 'proof') form.append('side', part);
  form.append('file', image, `${part}.jpg`);
  return call(token, 'POST', part === 'proof' ? redoPaths.proof : redoPaths.id, form, signal);
}

export const finishRedo = (token: string) => call<{ completedAt: string }>(token, 'POST', redoPaths.finish);
