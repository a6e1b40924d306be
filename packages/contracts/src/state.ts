/** Local browser state keys of docs/flow.md §3, verbatim. */
export const stateKeys = [
  'uuidUser',
  'uuidTrx',
  'apikeyOtorgante',
  'uuidOtorgante',
  'idOtorgante',
  'dataOtorgante',
  'data_user',
  'ocrFront',
  'ocrBack',
  'ocrFrontOk',
  'ocrBackOk',
  'links',
  'fields',
  'flag',
  'face',
  'completado',
  'package',
  'externalReference',
  'externalJWT',
  'correoElectronico',
  'movil',
  'bloqueo',
  'time',
  'enlace',
  'fechavigencia',
  'intentsData',
  'codes',
  // project: the result link's credential (the /pdf_token query's token), sent as X-Consumer-Custom-ID.
  'linkToken',
  // project: the transaction's own token (X-Transaction-Token of GET /v1/params), for the calls that read its data.
  'transactionToken',
] as const;
export type StateKey = (typeof stateKeys)[number];

/** Short process folio shown to users: the first segment of a uuid (docs/flow.md §2, §8). */
export function folioOf(id: string | null | undefined): string {
  return (id ?? '').split('-')[0] ?? '';
}
