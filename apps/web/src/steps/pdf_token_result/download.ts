import { pathOf, routes } from '@kyc/contracts/routes';

/** File name of docs/flow.md §2: "downloads it as pdf_autorizacion.pdf". */
export const downloadName = 'pdf_autorizacion.pdf';

const enlaceMarker = '/v1/enlace/';

/**
 * The token of the result link: the face match of the link flow returns documentLink (the enlace URL,
 * …/v1/enlace/{token}), stored as enlace; a bare token is accepted too. null when nothing usable is stored.
 */
export function enlaceToken(stored: string | null | undefined): string | null {
  const value = stored?.trim();
  if (!value) return null;
  const at = value.indexOf(enlaceMarker);
  const token = (at >= 0 ? value.slice(at + enlaceMarker.length) : value).split(/[?#]/)[0] ?? '';
  return /^[A-Za-z0-9._~-]{10,4000}$/.test(token) ? token : null;
}

/** A PDF starts with '%PDF-'. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';
}

export class DownloadError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

/** GET the enlace URL (docs/flow.md §7): "Document call success must return status 200", and the body must be a PDF. */
export async function fetchDocument(token: string, fetchImpl: typeof fetch = fetch): Promise<Blob> {
  let response: Response;
  try {
    response = await fetchImpl(pathOf(routes.enlace.path, { token }), { credentials: 'same-origin' });
  } catch (error) {
    throw new DownloadError(null, error instanceof Error ? error.message : String(error));
  }
  if (response.status !== 200) throw new DownloadError(response.status, `HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!looksLikePdf(bytes)) throw new DownloadError(response.status, 'the document is not a PDF');
  return new Blob([bytes], { type: 'application/pdf' });
}

/** Hands the file to the browser's download. */
export function saveFile(blob: Blob, name: string = downloadName): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked later: some browsers read the object URL after click() returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
