import { z } from 'zod';

export const uuid = z.uuid();

/** Headers most calls carry (docs/flow.md §7): transaction id, user id and the grantor's api key. */
export const trxHeaders = z.object({
  transaccion: uuid,
  cliente: uuid,
  apikey: z.string().min(1).max(200),
});
export type TrxHeaders = z.infer<typeof trxHeaders>;

export const apikeyHeader = z.object({ apikey: z.string().min(1).max(200) });

/** Error body of every call (DESIGN.md): message_client is the Spanish text the user may see. */
export const errorBody = z.object({
  status: z.number().int(),
  message: z.string(),
  message_client: z.string().optional(),
  /** With a 429 of a lock: when it ends (ISO 8601), so the flow can say until when (docs/flow.md §4 "Lockout"). */
  locked_until: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** Success envelope used by the spec's calls: status 200 and a payload. */
export function envelope<T extends z.ZodType>(payload: T) {
  return z.object({ status: z.literal(200), payload });
}

export const grantorParam = z.object({ idCampo: z.string().min(1).max(64), valor: z.string().max(20_000) });
/** `typed`: the person typed the value instead of confirming what was read from the ID (docs/flow.md §4). */
export const userDatum = z.object({ description: z.string().min(1).max(64), value: z.string().max(2_000), typed: z.boolean().optional() });

/** Multipart fields are described by name and kind; files are validated by sniffing on the server. */
export interface MultipartField {
  kind: 'text' | 'file';
  required: boolean;
  /** Accepted sniffed types for files. */
  accept?: readonly string[];
}
