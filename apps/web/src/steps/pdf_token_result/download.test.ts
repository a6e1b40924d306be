import { describe, expect, it } from 'vitest';
import { DownloadError, downloadName, enlaceToken, fetchDocument, looksLikePdf } from './download';

const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';

describe('result document download (docs/flow.md §2 /pdf_token_result)', () => {
  it('reads the token from the stored documentLink or a bare token', () => {
    expect(enlaceToken(`http://127.0.0.1:8080/v1/enlace/${token}`)).toBe(token);
    expect(enlaceToken(`/v1/enlace/${token}?x=1`)).toBe(token);
    expect(enlaceToken(token)).toBe(token);
    expect(enlaceToken('')).toBeNull();
    expect(enlaceToken(null)).toBeNull();
    expect(enlaceToken('/v1/enlace/../../etc')).toBeNull();
  });

  it('"downloads it as pdf_autorizacion.pdf" only when the call answers 200 with a PDF', async () => {
    expect(downloadName).toBe('pdf_autorizacion.pdf');
    const urls: string[] = [];
    const ok = (async (url: string) => {
      urls.push(url);
      return new Response(new TextEncoder().encode('%PDF-1.7 ...'), { status: 200 });
    }) as typeof fetch;
    const blob = await fetchDocument(token, ok);
    expect(blob.type).toBe('application/pdf');
    expect(urls).toEqual([`/v1/enlace/${token}`]);

    const gone = (async () => new Response('{"status":410}', { status: 410 })) as typeof fetch;
    await expect(fetchDocument(token, gone)).rejects.toMatchObject({ status: 410 });
    const html = (async () => new Response('<html>', { status: 200 })) as typeof fetch;
    await expect(fetchDocument(token, html)).rejects.toBeInstanceOf(DownloadError);
    const offline = (async () => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    await expect(fetchDocument(token, offline)).rejects.toMatchObject({ status: null });
  });

  it('recognises a PDF by its first bytes', () => {
    expect(looksLikePdf(new TextEncoder().encode('%PDF-1.4'))).toBe(true);
    expect(looksLikePdf(new TextEncoder().encode('%PD'))).toBe(false);
  });
});
