import { z } from 'zod';

/** An external HTTP JSON service the checks may consult (RENAPO gateway, INE list-nominal service). */
export interface GatewayConfig {
  url: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token: string | undefined;
  timeoutMs: number;
}

export interface IdentityGatewaysConfig {
  renapo: GatewayConfig | undefined;
  ine: GatewayConfig | undefined;
}

const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), { error: 'must be an http:// or https:// URL' });
const timeout = z
  .string()
  .trim()
  .regex(/^\d+$/, { error: 'must be an integer 100-60000' })
  .transform(Number)
  .refine((n) => n >= 100 && n <= 60_000, { error: 'must be an integer 100-60000' });

const blank = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());

const schema = z.object({
  RENAPO_URL: optional(httpUrl),
  RENAPO_TOKEN: optional(z.string().trim()),
  RENAPO_TIMEOUT_MS: optional(timeout),
  INE_URL: optional(httpUrl),
  INE_TOKEN: optional(z.string().trim()),
  INE_TIMEOUT_MS: optional(timeout),
});

const defaultTimeoutMs = 5000;

/**
 * RENAPO_* and INE_* variables. Returns the problems (variable and reason) instead of throwing so that
 * config.ts reports them with the rest of the environment.
 */
export function parseIdentityGateways(env: NodeJS.ProcessEnv): { config: IdentityGatewaysConfig } | { problems: string[] } {
  const parsed = schema.safeParse(env);
  if (!parsed.success) return { problems: parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`) };
  const e = parsed.data;
  const problems: string[] = [];
  const gateway = (prefix: 'RENAPO' | 'INE'): GatewayConfig | undefined => {
    const url = e[`${prefix}_URL`];
    if (!url) {
      const stray = (['TOKEN', 'TIMEOUT_MS'] as const).filter((s) => e[`${prefix}_${s}`] !== undefined).map((s) => `${prefix}_${s}`);
      if (stray.length > 0) problems.push(`${stray.join(', ')} set without ${prefix}_URL`);
      return undefined;
    }
    return { url, token: e[`${prefix}_TOKEN`], timeoutMs: e[`${prefix}_TIMEOUT_MS`] ?? defaultTimeoutMs };
  };
  const config = { renapo: gateway('RENAPO'), ine: gateway('INE') };
  return problems.length > 0 ? { problems } : { config };
}
