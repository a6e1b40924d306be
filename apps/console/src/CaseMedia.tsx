import { useEffect, useState } from 'react';
import type { ConsoleCaseFile, ConsoleVideoFrames } from '@kyc/contracts';
import { api, ApiError } from './api';

interface Props {
  file: ConsoleCaseFile;
  uuidTrx: string;
  grantorId: string | undefined;
  onSignedOut(notice?: string): void;
}

const seconds = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 1 });
const finishedStatuses = ['GREEN', 'YELLOW', 'RED', 'finished', 'reviewed'];

/**
 * The holder's photo beside frames of the face video, the video itself (fetched only when played: each playback is
 * audited) and «Descargar expediente», the evidence bundle, for the roles that may take the file out.
 */
export function CaseMedia({ file, uuidTrx, grantorId, onSignedOut }: Props) {
  const [frames, setFrames] = useState<ConsoleVideoFrames | undefined>();
  const [framesError, setFramesError] = useState('');
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState('');
  const hasVideo = file.face !== null;

  useEffect(() => {
    if (!hasVideo) return;
    let current = true;
    api
      .videoFrames(uuidTrx, grantorId)
      .then((f) => current && setFrames(f))
      .catch((e) => {
        if (!current) return;
        if (e instanceof ApiError && e.status === 401) return onSignedOut(e.text);
        setFramesError(e instanceof ApiError ? e.text : 'No pudimos extraer cuadros del video.');
      });
    return () => {
      current = false;
    };
  }, [hasVideo, uuidTrx, grantorId, onSignedOut]);

  async function download() {
    setDownloading(true);
    setDownloadError('');
    try {
      const { blob, name } = await api.bundle(uuidTrx, grantorId);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return onSignedOut(e.text);
      setDownloadError(e instanceof ApiError ? e.text : 'No pudimos descargar el expediente.');
    } finally {
      setDownloading(false);
    }
  }

  const mayDownload = file.mayReview && finishedStatuses.includes(file.case.status);
  return (
    <section aria-labelledby="media-title" className="case-media">
      <h2 id="media-title">Fotografía y video de rostro</h2>
      {!hasVideo ? (
        <p className="hint">Sin video de rostro.</p>
      ) : (
        <>
          <div className="face-compare">
            {file.images.includes('holder') ? (
              <figure className="holder">
                <img src={api.imageUrl(uuidTrx, 'holder', grantorId)} alt="Fotografía de la identificación" />
                <figcaption>Fotografía de la identificación</figcaption>
              </figure>
            ) : null}
            <div className="frames" aria-live="polite">
              {framesError ? (
                <p className="error" role="alert">
                  {framesError}
                </p>
              ) : !frames ? (
                <p className="hint">Extrayendo cuadros del video…</p>
              ) : (
                frames.frames.map((f) => (
                  <figure key={f.timeMs} className={f.compared ? 'compared' : undefined}>
                    <img src={f.image} alt={`Cuadro del video en el segundo ${seconds.format(f.timeMs / 1000)}${f.compared ? ', comparado con la fotografía de la identificación' : ''}`} />
                    <figcaption>
                      {seconds.format(f.timeMs / 1000)} s{f.compared ? ' · comparado' : ''}
                    </figcaption>
                  </figure>
                ))
              )}
            </div>
          </div>
          {frames?.frames.some((f) => f.compared) ? <p className="hint">Los cuadros marcados «comparado» son los que la decisión comparó con la fotografía.</p> : null}
          {file.face ? (
            <p className="muted">
              Puntaje de rostro {file.face.score === null ? 'sin dato' : file.face.score.toFixed(3)} con umbral {file.face.threshold.toFixed(3)}.
            </p>
          ) : null}
          {/* biome-ignore lint/a11y/useMediaCaption: the face video's sound is the person reading four digits; the decision's spoken-code result above says what was heard */}
          <video className="face-video" controls preload="none" src={api.videoUrl(uuidTrx, grantorId)} aria-label="Video de rostro de la persona">
            Tu navegador no reproduce este video.
          </video>
        </>
      )}
      {mayDownload ? (
        <div className="download">
          <button type="button" className="primary" onClick={download} disabled={downloading}>
            {downloading ? 'Preparando expediente…' : 'Descargar expediente'}
          </button>
          <p className="hint">Un archivo ZIP con los documentos, cada evidencia, su manifiesto SHA-256 y el sello de tiempo.</p>
          {downloadError ? (
            <p className="error" role="alert">
              {downloadError}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
