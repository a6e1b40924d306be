import { z } from 'zod';

/** Settings of the real-time media server (docs/flow.md §7 `record/connections`), from the environment. */
export interface RealtimeConfig {
  /** Peer connections alive at once; more are refused with 503. */
  maxConnections: number;
  /** Live connections from one client address; more are refused with 429 (one address cannot fill the server). */
  connectionsPerIp: number;
  /** A connection is closed this long after it was created, whatever it is doing. */
  connectionSeconds: number;
  /** UDP ports the ICE sockets bind to (so a firewall can open them); any free port when undefined. */
  portRange: [number, number] | undefined;
  /** STUN servers for a server behind NAT (a server-reflexive candidate); none by default. */
  stunUrls: string[];
}

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

function integer(min: number, max: number) {
  const message = `must be an integer ${min}-${max}`;
  return z
    .string()
    .trim()
    .regex(/^\d+$/, { error: message })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: message });
}

const portRange = z
  .string()
  .trim()
  .transform((value, ctx): [number, number] => {
    const match = /^(\d{4,5})-(\d{4,5})$/.exec(value);
    const low = Number(match?.[1]);
    const high = Number(match?.[2]);
    if (!match || low < 1024 || high > 65535 || high <= low) {
      ctx.addIssue({ code: 'custom', message: 'must be two ports LOW-HIGH, 1024 <= LOW < HIGH <= 65535 (e.g. 40000-40199)' });
      return z.NEVER;
    }
    return [low, high];
  });

const stunUrls = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const urls = value.split(',').map((url) => url.trim());
    if (urls.some((url) => !/^stun:[A-Za-z0-9.-]+(:\d{1,5})?$/.test(url))) {
      ctx.addIssue({ code: 'custom', message: 'must be comma-separated stun:host[:port] URLs' });
      return z.NEVER;
    }
    return urls;
  });

const envSchema = z.object({
  REALTIME_MAX_CONNECTIONS: z.preprocess(blankToUndefined, integer(1, 1000).optional()),
  REALTIME_CONNECTION_SECONDS: z.preprocess(blankToUndefined, integer(1, 3600).optional()),
  REALTIME_CONNECTIONS_PER_IP: z.preprocess(blankToUndefined, integer(1, 1000).optional()),
  REALTIME_PORT_RANGE: z.preprocess(blankToUndefined, portRange.optional()),
  REALTIME_STUN_URLS: z.preprocess(blankToUndefined, stunUrls.optional()),
});

export type RealtimeConfigResult = { ok: true; config: RealtimeConfig } | { ok: false; problems: string[] };

export function parseRealtimeEnv(env: NodeJS.ProcessEnv): RealtimeConfigResult {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`) };
  }
  const e = parsed.data;
  return {
    ok: true,
    config: {
      maxConnections: e.REALTIME_MAX_CONNECTIONS ?? 16,
      connectionSeconds: e.REALTIME_CONNECTION_SECONDS ?? 90,
      connectionsPerIp: e.REALTIME_CONNECTIONS_PER_IP ?? 4,
      portRange: e.REALTIME_PORT_RANGE,
      stunUrls: e.REALTIME_STUN_URLS ?? [],
    },
  };
}
