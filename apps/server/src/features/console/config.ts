import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Settings of the review console (CONSOLE_* variables, README "Review console"). */
export interface ConsoleConfig {
  /** The session cookie's Secure attribute; off only for a console opened over http://localhost. */
  cookieSecure: boolean;
  /** A session unused this long ends. */
  sessionIdleMinutes: number;
  /** A session ends this long after sign-in, used or not. */
  sessionAbsoluteHours: number;
  /** A case without an event for this long is listed as abandoned at its last step. */
  abandonAfterMinutes: number;
  /** The built console (apps/console/dist), served under /console. */
  dist: string;
}

// Relative to this module: src/features/console/ and dist/features/console/ are both four levels under apps/.
const defaultDist = fileURLToPath(new URL('../../../../console/dist/', import.meta.url));

function integer(env: NodeJS.ProcessEnv, name: string, min: number, max: number, fallback: number, problems: string[]): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    problems.push(`${name} must be an integer ${min}-${max}`);
    return fallback;
  }
  return value;
}

export function parseConsoleEnv(env: NodeJS.ProcessEnv): { ok: true; config: ConsoleConfig } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const secure = env.CONSOLE_COOKIE_SECURE?.trim();
  if (secure && secure !== 'true' && secure !== 'false') problems.push("CONSOLE_COOKIE_SECURE must be 'true' or 'false'");
  const config: ConsoleConfig = {
    cookieSecure: secure !== 'false',
    sessionIdleMinutes: integer(env, 'CONSOLE_SESSION_IDLE_MINUTES', 1, 24 * 60, 30, problems),
    sessionAbsoluteHours: integer(env, 'CONSOLE_SESSION_HOURS', 1, 72, 12, problems),
    abandonAfterMinutes: integer(env, 'CONSOLE_ABANDON_MINUTES', 1, 60 * 24 * 90, 60, problems),
    dist: path.resolve(env.CONSOLE_DIST?.trim() || defaultDist),
  };
  return problems.length > 0 ? { ok: false, problems } : { ok: true, config };
}
