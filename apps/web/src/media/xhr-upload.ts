import type { UploadTransport } from '../api/client';

const nullBodyStatuses = new Set([101, 204, 205, 304]);

/**
 * The browser's upload transport for the api client's multipart calls: XMLHttpRequest, the one API that
 * reports upload progress everywhere. Kept out of the client so the entry route does not carry it.
 */
export const xhrUpload: UploadTransport = (url, init, callbacks) =>
  new Promise<Response>((resolve, reject) => {
    const signal = init.signal;
    if (signal?.aborted) {
      reject(new DOMException('The upload was aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(init.method ?? 'POST', url);
    xhr.withCredentials = init.credentials === 'include';
    for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      callbacks.onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : null });
    });
    xhr.upload.addEventListener('load', () => callbacks.onUploaded());
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.addEventListener('loadend', () => signal?.removeEventListener('abort', onAbort));
    xhr.addEventListener('load', () => {
      const headers = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const body = nullBodyStatuses.has(xhr.status) ? null : xhr.responseText;
      resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers }));
    });
    xhr.addEventListener('error', () => reject(new TypeError('Network request failed')));
    xhr.addEventListener('timeout', () => reject(new TypeError('Network request timed out')));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was aborted', 'AbortError')));
    xhr.send(init.body as XMLHttpRequestBodyInit | null);
  });
