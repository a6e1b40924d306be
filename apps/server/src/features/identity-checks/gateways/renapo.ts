import { z } from 'zod';
import type { GatewayConfig } from './config.js';
import { postJson } from './json-gateway.js';

/**
 * The RENAPO gateway contract (README "RENAPO and INE gateways"): `POST RENAPO_URL` with `{ "curp": "..." }`,
 * answered with what the registry holds for that CURP. An operator points it at a bridge to their RENAPO
 * provider; the fields below are the only ones read.
 */
const renapoReply = z.object({
  found: z.boolean(),
  /** RENAPO's estatus of the CURP (AN, AH, RCC, RCN, BD, BAP...); a 'B' status is a cancelled CURP. */
  curpStatus: z.string().max(10).optional(),
  names: z.string().max(200).optional(),
  firstSurname: z.string().max(200).optional(),
  secondSurname: z.string().max(200).optional(),
  /** YYYY-MM-DD. */
  birthDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  sex: z.enum(['H', 'M', 'X']).optional(),
  birthState: z.string().max(2).optional(),
});

export type RenapoRecord = z.output<typeof renapoReply>;
export type RenapoLookup = { ok: true; record: RenapoRecord; ms: number } | { ok: false; reason: string; ms: number };

export interface RenapoGateway {
  /** Shown as the check's source. */
  readonly name: string;
  lookup(curp: string): Promise<RenapoLookup>;
}

export function httpRenapoGateway(config: GatewayConfig): RenapoGateway {
  return {
    name: `renapo-gateway ${new URL(config.url).host}`,
    async lookup(curp) {
      const reply = await postJson(config, { curp });
      if (!reply.ok) return reply;
      const parsed = renapoReply.safeParse(reply.body);
      if (!parsed.success) return { ok: false, reason: 'reply does not follow the gateway contract', ms: reply.ms };
      return { ok: true, record: parsed.data, ms: reply.ms };
    },
  };
}
