/**
 * The one-time code read aloud in the face video (docs/flow.md §3 "Video token": a 4-digit string with created and
 * expire). A code belongs to one transaction, is used by one video at most and expires: 3 minutes is enough
 * for the flow (5 s stability wait, ~9 s recording, upload) with room for a slow network, and short enough
 * that a code seen once is of no use later.
 */
import { randomInt } from 'node:crypto';
import { grantorParamDefaults } from '@kyc/contracts';
import { drawSchedule, promptRanges, withPrompts, type ChallengeSchedule } from './schedule.js';
import { refusal, type Refusal } from '../../domain/refusal.js';

export const CODE_DIGITS = 4;
export const CODE_LIFETIME_MS = 3 * 60 * 1000;
/** The browser shows the first four digits of a code (docs/flow.md §4); the schedule times those. */
export const SHOWN_DIGITS = 4;

export function newCode(digits = CODE_DIGITS): string {
  return Array.from({ length: digits }, () => String(randomInt(0, 10))).join('');
}

export interface IssuedCode {
  code: string;
  /** ISO-8601 UTC, the wire values that identify the code when the video comes back. */
  created: string;
  expire: string;
  /** When each shown digit appears and when the recording stops (schedule.ts); the browser follows it. */
  schedule: ChallengeSchedule;
}

/**
 * A new code with its own random schedule (or `fixedSchedule`: the test-only setting, schedule.ts), with `prompts`
 * head turns asked after the digits (the grantor's MOVIMIENTOS_VIDEO_TOKEN, 0-2).
 */
export function issueCode(now: Date, options: { lifetimeMs?: number; fixedSchedule?: ChallengeSchedule | undefined; prompts?: number } = {}): IssuedCode {
  const code = newCode();
  const prompts = options.prompts ?? 0;
  return {
    code,
    created: now.toISOString(),
    expire: new Date(now.getTime() + (options.lifetimeMs ?? CODE_LIFETIME_MS)).toISOString(),
    schedule: options.fixedSchedule
      ? withPrompts(
          options.fixedSchedule,
          Array.from({ length: Math.min(prompts, promptRanges.maxPrompts) }, (_, i) => (i % 2 === 0 ? 'left' : 'right')),
        )
      : drawSchedule(Math.min(code.length, SHOWN_DIGITS), undefined, prompts),
  };
}

/** Head turns a grantor asks for (MOVIMIENTOS_VIDEO_TOKEN, stored value or default '0'): 0-2, anything else 0. */
export function motionPromptCount(stored: Readonly<Record<string, string>>): number {
  const value = (stored.MOVIMIENTOS_VIDEO_TOKEN ?? grantorParamDefaults.MOVIMIENTOS_VIDEO_TOKEN).trim();
  return /^[0-2]$/.test(value) ? Number(value) : 0;
}

export type CodeState = 'usable' | 'unknown' | 'used' | 'expired';

export function codeState(stored: { expireAt: string; usedAt: string | null } | undefined, now: Date): CodeState {
  if (!stored) return 'unknown';
  if (stored.usedAt) return 'used';
  return Date.parse(stored.expireAt) <= now.getTime() ? 'expired' : 'usable';
}

export const codeRefusal: Record<Exclude<CodeState, 'usable'>, Refusal> = {
  unknown: refusal('video_code_unknown', 'Invalid request: no video-token code was issued to this transaction with these created and expire values'),
  used: refusal('video_code_used', 'The video-token code was already used: request a new one'),
  expired: refusal('video_code_expired', 'The video-token code expired: request a new one'),
};
