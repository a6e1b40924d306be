const blockedSchemes = new Set(['javascript', 'data', 'vbscript', 'file', 'blob', 'about']);
const bareScheme = /^[a-z][a-z0-9+.-]*$/i;

/**
 * 'Volver al origen' (docs/flow.md §2 simple final screen): a deep link back to the partner app named by the stored
 * package (the popup query's schema). A bare scheme ('miapp') becomes 'miapp://resultado'; a full address is
 * used as given. Both carry uuid and transaccion. Script-capable and local schemes are refused (null).
 */
export function returnLink(pkg: string | null | undefined, ids: { uuidUser: string; uuidTrx: string }): string | null {
  const value = pkg?.trim();
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(bareScheme.test(value) ? `${value}://resultado` : value);
  } catch {
    return null;
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (blockedSchemes.has(scheme)) return null;
  url.searchParams.set('uuid', ids.uuidUser);
  url.searchParams.set('transaccion', ids.uuidTrx);
  return url.toString();
}
