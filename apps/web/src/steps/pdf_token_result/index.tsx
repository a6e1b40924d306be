import { useState } from 'react';
import { sendAudit } from '../../api/calls';
import { useJourney } from '../../journey/run';
import { readJson, sessionState } from '../../session/storage';
import { Screen } from '../../ui/Screen';
import { texts } from '../../i18n/es-MX/pdf_token_result';
import '../pdf_token/pdf_token.css';
import { DownloadError, enlaceToken, fetchDocument, saveFile } from './download';

/** The stored link: enlace, else the documentLink of the stored face result. */
function storedToken(): string | null {
  const storage = sessionState();
  const face = readJson(storage, 'face');
  const documentLink = typeof face === 'object' && face !== null ? (face as { documentLink?: unknown }).documentLink : undefined;
  return enlaceToken(storage.get('enlace')) ?? enlaceToken(typeof documentLink === 'string' ? documentLink : null);
}

/**
 * /pdf_token_result (docs/flow.md §2): the document is ready and consultable once. DESCARGAR DOCUMENTO downloads it as
 * pdf_autorizacion.pdf; on failure the flow goes back to the link's face video.
 */
export function Component() {
  const journey = useJourney('pdf_token_result');
  const [state, setState] = useState<'idle' | 'downloading' | 'done' | 'failed'>('idle');

  async function download(): Promise<void> {
    setState('downloading');
    const token = storedToken();
    try {
      if (!token) throw new DownloadError(null, 'no result link stored');
      saveFile(await fetchDocument(token));
      setState('done');
    } catch (error) {
      const status = error instanceof DownloadError ? error.status : null;
      const message = error instanceof Error ? error.message : String(error);
      void sendAudit('pdf_token_result', status === null ? 'Exception' : 'Error', JSON.stringify({ ruta: '/v1/enlace', status, message })).catch(() => undefined);
      setState('failed');
      journey({ type: 'downloadFailed' });
    }
  }

  return (
    <Screen
      title={texts.title}
      step="pdf_token_result"
      className="link"
      actions={
        <button type="button" className="btn btn--primary" disabled={state !== 'idle'} onClick={() => void download()}>
          {texts.download}
        </button>
      }
    >
      <div className="link__document" aria-hidden="true" />
      <p>{texts.intro}</p>
      <p role="status">{state === 'downloading' ? texts.downloading : state === 'done' ? texts.downloaded : null}</p>
      <p role="alert">{state === 'failed' ? texts.failed : null}</p>
    </Screen>
  );
}
