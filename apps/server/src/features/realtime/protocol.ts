import { realtimeChannel, realtimeSchemas, type RealtimeStartMessage } from '@kyc/contracts';
import type { RealtimeResult } from './handlers.js';

/** Larger data-channel messages are refused unread (the start message is well under 2 KB). */
export const maxChannelMessageBytes = 16 * 1024;

export type ChannelMessage = { kind: 'start'; message: RealtimeStartMessage } | { kind: 'finish' } | { kind: 'ping' } | { kind: 'invalid'; reason: string };

function describeIssues(issues: { path: PropertyKey[]; message: string }[]): string {
  const described = issues.slice(0, 5).map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message));
  return described.join('; ') + (issues.length > 5 ? ` (and ${issues.length - 5} more)` : '');
}

/** One data-channel message: the JSON start message, finish_record, ping, or what is wrong with it. */
export function parseChannelMessage(data: string | Buffer): ChannelMessage {
  const size = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  if (size > maxChannelMessageBytes) return { kind: 'invalid', reason: `message larger than ${maxChannelMessageBytes} bytes` };
  const text = (typeof data === 'string' ? data : data.toString('utf8')).trim();
  if (text === realtimeChannel.finish) return { kind: 'finish' };
  if (text === realtimeChannel.ping) return { kind: 'ping' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: `expected JSON, '${realtimeChannel.finish}' or '${realtimeChannel.ping}'` };
  }
  const parsed = realtimeSchemas.startMessage.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', reason: describeIssues(parsed.error.issues) };
  if (parsed.data.uuid.toLowerCase() !== parsed.data.cliente.toLowerCase()) {
    return { kind: 'invalid', reason: 'uuid must equal cliente' };
  }
  return { kind: 'start', message: parsed.data };
}

/** The reply for a refused message or a failed step: res is the error body of the HTTP calls. */
export function errorReply(status: number, message: string, messageClient?: string): RealtimeResult {
  return { status, res: { status, message, ...(messageClient ? { message_client: messageClient } : {}) } };
}
