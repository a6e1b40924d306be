/** A message from the flow's popup (docs/flow.md §3 Launcher: step, result, uuid, data, type, error_text). */
export interface FlowMessage {
  step: string;
  result: string;
  uuid?: string;
  transaccion?: string;
  data?: unknown;
  type?: string;
  status?: string;
  error_text?: string;
}

export type Route = 'finish' | 'status' | 'errors';

export function isFlowMessage(value: unknown): value is FlowMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return typeof m.step === 'string' && typeof m.result === 'string';
}

/**
 * Spec §2 Embeddable launcher: a completed message triggers finish (and the popup closes); result OK triggers
 * status; anything else triggers errors.
 */
export function routeOf(message: FlowMessage): Route {
  if (message.step === 'completed') return 'finish';
  if (message.result === 'OK') return 'status';
  return 'errors';
}

/** Whether a window message comes from the flow: its origin and its window, nothing else. */
export function fromFlow(event: { origin: string; source: unknown }, flowOrigin: string, popup: unknown): boolean {
  return event.origin === flowOrigin && popup != null && event.source === popup;
}
