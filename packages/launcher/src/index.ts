import { launcherTexts } from '@kyc/contracts/texts';
import { renderButton, type Variant } from './button';
import { flowUrl, LauncherError, obtainCredentials, type LauncherFailure } from './credentials';
import { fromFlow, isFlowMessage, routeOf, type FlowMessage } from './messages';
import { completeResult, isCancellation, launcherError, processError, type CompleteResult, type FlowError, type UserExit } from './outcomes';

export type { FlowMessage } from './messages';
export type { LauncherFailure } from './credentials';
export type { Variant } from './button';
export type { CompleteResult, FlowError, UserExit, ScoreFlag } from './outcomes';
export { routeOf, fromFlow, isFlowMessage } from './messages';
export { textForStatus, flowUrl } from './credentials';

export const version = '1.0.0';

export interface LauncherOptions {
  /** The grantor's api key. */
  key: string;
  /** Where the button goes: an element or a CSS selector. */
  container: HTMLElement | string;
  /** Button text (the accessible name of the logo-only variant). */
  text?: string;
  variant?: Variant;
  /** Logs every step and every message to the console. */
  debug?: boolean;
  /** Which base URL to use; default prod. */
  mode?: 'dev' | 'prod';
  /** Base URLs of the flow's server: dev defaults to http://localhost:8080, prod to where the launcher was loaded from. */
  urls?: { dev?: string; prod?: string };
  /** A return package for the flow (stored as `package`). */
  schema?: string;
  /** The partner's own user id (a uuid), kept as the flow's user id. */
  uuid?: string;
  /** The verification reached its end; the popup is closed. */
  onComplete?: (result: CompleteResult) => void;
  /** The launcher could not start the flow, or a step of the flow failed. */
  onError?: (error: FlowError) => void;
  /** The person cancelled in the flow or closed the popup before the end. */
  onUserExit?: (exit: UserExit) => void;
  /** Each step the flow reports as done (its name). */
  onStep?: (step: string) => void;
  /** The spec's raw callbacks, kept for existing integrations: per-step OK messages... */
  status?: (message: FlowMessage) => void;
  /** ...failure and cancellation messages, and the launcher's own failures... */
  errors?: (message: FlowMessage | LauncherFailure) => void;
  /** ...and the completed message. */
  finish?: (message: FlowMessage) => void;
  /** Tests only: a fetch and a window.open. */
  fetch?: typeof fetch;
}

export interface Launcher {
  readonly element: HTMLElement;
  /** What a click does: obtain credentials, open the popup, listen. */
  open(): Promise<void>;
  destroy(): void;
}

let loadedFrom: string | null = null;

/** The IIFE build records the origin it was loaded from (the default prod base URL). */
export function setLoadedFrom(origin: string | null): void {
  loadedFrom = origin;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function baseUrlOf(options: Pick<LauncherOptions, 'mode' | 'urls'>, fallbackOrigin: string): string {
  if (options.mode === 'dev') return trimSlash(options.urls?.dev ?? 'http://localhost:8080');
  return trimSlash(options.urls?.prod ?? loadedFrom ?? fallbackOrigin);
}

const popupFeatures = 'popup=yes,width=480,height=820,resizable=yes,scrollbars=yes';

export function createLauncher(options: LauncherOptions): Launcher {
  const container = typeof options.container === 'string' ? document.querySelector<HTMLElement>(options.container) : options.container;
  if (!container) throw new Error('KycLauncher: container not found');
  const text = options.text ?? 'Verificar mi identidad';
  const parts = renderButton(container, text, options.variant ?? 'original');
  const log = (...args: unknown[]) => {
    if (options.debug) console.debug('[kyc-launcher]', ...args);
  };
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let cleanup: (() => void) | null = null;
  let current: Window | null = null;

  const fail = (failure: LauncherFailure) => {
    log('error', failure);
    parts.error.textContent = failure.error_text;
    options.errors?.(failure);
    options.onError?.(launcherError(failure));
  };

  async function open(): Promise<void> {
    // One journey at a time: a second click brings the open popup forward.
    if (current && !current.closed) {
      current.focus();
      return;
    }
    cleanup?.();
    parts.error.textContent = '';
    const base = baseUrlOf(options, location.origin);
    const flowOrigin = new URL(base).origin;
    // Opened at once, inside the click: a window opened after the credentials' round trips would be blocked.
    const popup = window.open('', `kyc_flow_${Date.now()}`, popupFeatures);
    current = popup;
    if (!popup) {
      window.alert(launcherTexts.popupBlocked);
      fail({ step: 'launcher', result: 'FAIL', type: 'LAUNCHER', status: null, error_text: launcherTexts.popupBlocked });
      return;
    }
    try {
      popup.document.title = launcherTexts.opening;
      popup.document.body.textContent = launcherTexts.opening;
    } catch {
      // not our document any more: nothing to show
    }
    parts.button.disabled = true;
    parts.button.setAttribute('aria-busy', 'true');
    try {
      log('obtaining credentials from', base);
      const { uuid, token } = await obtainCredentials(doFetch, base, options.key, options.uuid);
      log('credentials for user', uuid);
      const referer = location.origin + location.pathname;
      let lastStep: string | null = null;
      let ended = false;
      const onMessage = (event: MessageEvent) => {
        if (!fromFlow(event, flowOrigin, popup)) {
          log('ignored a message from', event.origin);
          return;
        }
        if (!isFlowMessage(event.data)) return;
        const message = event.data;
        const route = routeOf(message);
        log(route, message);
        lastStep = message.step;
        if (route === 'finish') {
          ended = true;
          options.finish?.(message);
          options.onComplete?.(completeResult(message));
          popup.close();
        } else if (route === 'status') {
          options.status?.(message);
          options.onStep?.(message.step);
        } else {
          options.errors?.(message);
          if (isCancellation(message)) {
            ended = true;
            options.onUserExit?.({ reason: 'cancelled', step: message.step, message });
          } else {
            options.onError?.(processError(message));
          }
        }
      };
      window.addEventListener('message', onMessage);
      const watch = window.setInterval(() => {
        if (!popup.closed) return;
        if (!ended) options.onUserExit?.({ reason: 'closed', step: lastStep });
        cleanup?.();
      }, 1000);
      cleanup = () => {
        window.removeEventListener('message', onMessage);
        window.clearInterval(watch);
        cleanup = null;
        log('popup closed');
      };
      popup.location.href = flowUrl(base, options.key, referer, token, options.schema);
    } catch (error) {
      popup.close();
      fail(error instanceof LauncherError ? error.toFailure() : { step: 'launcher', result: 'FAIL', type: 'LAUNCHER', status: null, error_text: launcherTexts.serviceDown });
    } finally {
      parts.button.disabled = false;
      parts.button.removeAttribute('aria-busy');
    }
  }

  const onClick = () => void open();
  parts.button.addEventListener('click', onClick);
  return {
    element: parts.host,
    open,
    destroy() {
      cleanup?.();
      parts.button.removeEventListener('click', onClick);
      parts.host.remove();
    },
  };
}
