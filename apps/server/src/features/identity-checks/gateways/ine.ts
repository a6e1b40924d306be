import { z } from 'zod';
import type { GatewayConfig } from './config.js';
import { postJson } from './json-gateway.js';

/**
 * The INE list-nominal gateway contract (README "RENAPO and INE gateways"): `POST INE_URL` with the
 * credential's identifiers, as the flow sends them: `{ "cic", "identificadorCiudadano" }` for the current
 * models or `{ "ocr", "claveElector", "numeroEmision" }` for the older ones. The answer says whether the
 * credential is in the list and current.
 */
const ineReply = z.object({
  /** The credential exists in the INE's records. */
  found: z.boolean(),
  /** It is the holder's current credential, valid to vote (vigente). */
  current: z.boolean().optional(),
  detail: z.string().max(300).optional(),
});

export type IneRecord = z.output<typeof ineReply>;
export type IneLookup = { ok: true; record: IneRecord; ms: number } | { ok: false; reason: string; ms: number };

export type IneQuery = { cic: string; identificadorCiudadano?: string } | { ocr: string; claveElector: string; numeroEmision: string };

export interface IneGateway {
  readonly name: string;
  lookup(query: IneQuery): Promise<IneLookup>;
}

export function httpIneGateway(config: GatewayConfig): IneGateway {
  return {
    name: `ine-gateway ${new URL(config.url).host}`,
    async lookup(query) {
      const reply = await postJson(config, query);
      if (!reply.ok) return reply;
      const parsed = ineReply.safeParse(reply.body);
      if (!parsed.success) return { ok: false, reason: 'reply does not follow the gateway contract', ms: reply.ms };
      return { ok: true, record: parsed.data, ms: reply.ms };
    },
  };
}
