import type { GatewayConfig } from './config.js';

/** What came back from an external gateway: its JSON answer, or why there is none. */
export type GatewayReply = { ok: true; body: unknown; ms: number } | { ok: false; reason: string; ms: number };

const maxReplyBytes = 64 * 1024;

/**
 * POSTs a JSON body to a configured gateway and reads its JSON answer, within the configured timeout. Never
 * throws: a gateway that is down, slow or answers garbage is reported as a reason (the checks it feeds never
 * block the flow).
 */
export async function postJson(gateway: GatewayConfig, body: unknown): Promise<GatewayReply> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(gateway.token ? { authorization: `Bearer ${gateway.token}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(gateway.timeoutMs),
      redirect: 'error',
    });
    const text = await response.text();
    if (!response.ok) return { ok: false, reason: `HTTP ${response.status}`, ms: ms() };
    if (text.length > maxReplyBytes) return { ok: false, reason: 'reply too large', ms: ms() };
    try {
      return { ok: true, body: JSON.parse(text) as unknown, ms: ms() };
    } catch {
      return { ok: false, reason: 'reply is not JSON', ms: ms() };
    }
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, reason: `no answer within ${gateway.timeoutMs} ms`, ms: ms() };
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { ok: false, reason: `unreachable${cause ? ` (${cause})` : ''}`, ms: ms() };
  }
}
