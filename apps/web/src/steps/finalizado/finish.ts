import { errorTexts } from '@kyc/contracts/texts';
import { setLock } from '../../session/lockout';
import { writeJson, type StateStorage } from '../../session/storage';
import { bundleRequest, finishedStatus, type EmailRequest } from './email';
import type { ScoreFlag } from './score';

/** Spec §9 "Email-success follow-up 500 ms". */
export const emailFollowUpMs = 500;

export interface LifecycleUpdate {
  step: string;
  status: string;
  description: string;
}

export interface FinishDeps {
  storage: StateStorage;
  sendEmail: (request: EmailRequest) => Promise<unknown>;
  /** nom_151: the evidence bundle with its time-stamp (docs/flow.md §7, only when SEND_ZIP_SEMAFORO). */
  sendBundle: (body: ReturnType<typeof bundleRequest>) => Promise<unknown>;
  /** proccessdocuments: the document links, stored as links. */
  processDocuments: () => Promise<Record<string, string>>;
  lifecycle: (update: LifecycleUpdate) => Promise<unknown>;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

export type SendOutcome = { ok: true; result: 'OK' | 'FAIL'; links: Record<string, string> | null } | { ok: false; message: string; messageClient: string | undefined };

const finishedDescription = 'Proceso finalizado';

async function fetchLinks(deps: FinishDeps): Promise<Record<string, string> | null> {
  try {
    const links = await deps.processDocuments();
    writeJson(deps.storage, 'links', links);
    return links;
  } catch {
    // The documents are the server's evidence; the failure is already audited by the client.
    return null;
  }
}

function describe(error: unknown): { message: string; messageClient: string | undefined } {
  const messageClient = typeof error === 'object' && error !== null ? (error as { messageClient?: unknown }).messageClient : undefined;
  return {
    message: error instanceof Error ? error.message : String(error),
    messageClient: typeof messageClient === 'string' ? messageClient : undefined,
  };
}

/**
 * TERMINAR in the confirmation modal (docs/flow.md §4 "Sending result"): the e-mail request; on success, the documents
 * first when the full result goes to the opener, then after 500 ms the finished event (OK, or FAIL when YELLOW)
 * and completado 'true'. On failure the step email_check is reported failed and nothing is finished.
 */
export async function sendResult(deps: FinishDeps, request: EmailRequest, flag: ScoreFlag, options: { fetchDocumentsFirst: boolean; sendBundle?: boolean }): Promise<SendOutcome> {
  try {
    await deps.sendEmail(request);
  } catch (error) {
    const failure = describe(error);
    await deps.lifecycle({ step: 'email_check', status: 'FAIL', description: failure.message }).catch(() => undefined);
    return { ok: false, ...failure };
  }
  deps.storage.set('correoElectronico', request.email);
  const links = options.fetchDocumentsFirst ? await fetchLinks(deps) : null;
  if (options.sendBundle) {
    // The bundle is the grantor's archive: its failure is audited by the client and does not hold the customer.
    await deps.sendBundle(bundleRequest(request, links)).catch(() => undefined);
  }
  await deps.sleep(emailFollowUpMs);
  const result = finishedStatus(flag);
  await deps.lifecycle({ step: 'finished', status: result, description: finishedDescription }).catch(() => undefined);
  deps.storage.set('completado', 'true');
  return { ok: true, result, links };
}

/**
 * A RED result ends the process (docs/flow.md §4 "Lockout"): bloqueo with time one hour ahead, the documents fetched,
 * the failure event (status FAIL) sent, then completado 'true'.
 */
export async function lockAfterFailure(deps: FinishDeps): Promise<void> {
  setLock(deps.storage, deps.now());
  await fetchLinks(deps);
  await deps.lifecycle({ step: 'finished', status: 'FAIL', description: 'Proceso no exitoso' }).catch(() => undefined);
  deps.storage.set('completado', 'true');
}

/** No flag after the retry cap: score_check reported failed ('Sin valores en el score'), then completado 'true'. */
export async function reportScoreUnavailable(deps: FinishDeps): Promise<void> {
  await deps.lifecycle({ step: 'score_check', status: 'FAIL', description: errorTexts.noScore }).catch(() => undefined);
  deps.storage.set('completado', 'true');
}

/** E-mail sending off (ENABLE_SEND_MAIL): the finished event (OK, or FAIL when YELLOW) and completado 'true' at once. */
export async function finishWithoutEmail(deps: FinishDeps, flag: ScoreFlag): Promise<'OK' | 'FAIL'> {
  const result = finishedStatus(flag);
  await deps.lifecycle({ step: 'finished', status: result, description: finishedDescription }).catch(() => undefined);
  deps.storage.set('completado', 'true');
  return result;
}
