import { z } from 'zod';

/**
 * The abuse limits (issue #15): every call that costs CPU, storage, an SMS or an e-mail belongs to one cost class;
 * each class has three limits per window, counted apart: per transaction, per client IP and per api key.
 * 0 turns one of them off. Defaults leave an honest customer's journey far below them (docs/decisions.md
 * "Abuse limits").
 */
export const costClasses = ['upload', 'sms', 'email', 'events', 'documents', 'checks', 'realtime', 'launcher'] as const;
export type CostClass = (typeof costClasses)[number];

export interface ClassLimits {
  perTransaction: number;
  perIp: number;
  perKey: number;
}

export interface RateLimitConfig {
  enabled: boolean;
  /** The window every limit counts in. */
  windowMs: number;
  classes: Record<CostClass, ClassLimits>;
  /** redis:// URL of the shared counters (several nodes); in-process counters when undefined. */
  redisUrl: string | undefined;
}

/** Per minute: transaction, IP, key. An IP may be a carrier NAT or an office: it gets several customers' worth. */
export const defaultClassLimits: Record<CostClass, ClassLimits> = {
  upload: { perTransaction: 30, perIp: 300, perKey: 6000 },
  sms: { perTransaction: 10, perIp: 60, perKey: 2000 },
  email: { perTransaction: 5, perIp: 30, perKey: 2000 },
  events: { perTransaction: 120, perIp: 1200, perKey: 60000 },
  documents: { perTransaction: 60, perIp: 600, perKey: 12000 },
  checks: { perTransaction: 60, perIp: 600, perKey: 12000 },
  realtime: { perTransaction: 10, perIp: 60, perKey: 2000 },
  launcher: { perTransaction: 0, perIp: 60, perKey: 6000 },
};

export const envName = (cls: CostClass) => `RATE_LIMIT_${cls.toUpperCase()}`;

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const triple = z
  .string()
  .trim()
  .transform((value, ctx): ClassLimits => {
    const match = /^(\d{1,7}),(\d{1,7}),(\d{1,7})$/.exec(value.replace(/\s+/g, ''));
    if (!match) {
      ctx.addIssue({ code: 'custom', message: 'must be three integers PER_TRANSACTION,PER_IP,PER_KEY (0 turns one off), e.g. 30,300,6000' });
      return z.NEVER;
    }
    return { perTransaction: Number(match[1]), perIp: Number(match[2]), perKey: Number(match[3]) };
  });

const envSchema = z.object({
  RATE_LIMITS: z.preprocess(blankToUndefined, z.enum(['on', 'off'], { error: "must be 'on' or 'off'" }).optional()),
  RATE_LIMIT_WINDOW_SECONDS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^\d+$/, { error: 'must be an integer 1-3600' })
      .transform(Number)
      .refine((n) => n >= 1 && n <= 3600, { error: 'must be an integer 1-3600' })
      .optional(),
  ),
  REDIS_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .refine((v) => /^rediss?:\/\//.test(v) && URL.canParse(v), { error: 'must be a redis:// or rediss:// URL' })
      .optional(),
  ),
  ...Object.fromEntries(costClasses.map((cls) => [envName(cls), z.preprocess(blankToUndefined, triple.optional())])),
});

export type RateLimitConfigResult = { ok: true; config: RateLimitConfig } | { ok: false; problems: string[] };

export function parseRateLimitEnv(env: NodeJS.ProcessEnv): RateLimitConfigResult {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`) };
  const e = parsed.data as Record<string, unknown> & z.output<typeof envSchema>;
  const classes = Object.fromEntries(costClasses.map((cls) => [cls, (e[envName(cls)] as ClassLimits | undefined) ?? defaultClassLimits[cls]])) as Record<CostClass, ClassLimits>;
  return {
    ok: true,
    config: {
      enabled: e.RATE_LIMITS !== 'off',
      windowMs: (e.RATE_LIMIT_WINDOW_SECONDS ?? 60) * 1000,
      classes,
      redisUrl: e.REDIS_URL,
    },
  };
}

/** The defaults, for configs built without the environment (tests). */
export function defaultRateLimitConfig(): RateLimitConfig {
  return { enabled: true, windowMs: 60_000, classes: { ...defaultClassLimits }, redisUrl: undefined };
}
