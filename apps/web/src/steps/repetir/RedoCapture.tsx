import { useCallback, useEffect, useRef, useState } from 'react';
import { canvasToBlob, grabFrame } from '../../media/capture';
import { useCamera } from '../../media/useCamera';
import { Screen } from '../../ui/Screen';
import { CameraStage } from '../../ui/CameraStage';
import { openProofCamera } from '../comprobante/camera';
import { redoCopy as copy } from './copy';
import type { RedoPart } from './redo-api';
import '../../ui/capture.css';

interface Props {
  part: RedoPart;
  /** A refusal of the last photo, shown above the camera. */
  problem: string | null;
  onShot(image: Blob): void;
}

/**
 * One photo for the redo: the back camera with the document's guide and CAPTURAR, or a photo chosen from the device
 * (a computer without a camera); then a preview to send or retake.
 */
export function RedoCapture({ part, problem, onShot }: Props) {
  const [shot, setShot] = useState<{ blob: Blob; url: string } | null>(null);
  const [ready, setReady] = useState(false);
  const [cameraFailed, setCameraFailed] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const onFailure = useCallback(() => setCameraFailed(true), []);
  const stream = useCamera(shot === null && !cameraFailed, openProofCamera, onFailure);
  useEffect(() => () => (shot ? URL.revokeObjectURL(shot.url) : undefined), [shot]);

  async function capture() {
    const video = videoRef.current;
    if (!video) return;
    const blob = await canvasToBlob(grabFrame(video), 'image/jpeg', 0.92);
    setShot({ blob, url: URL.createObjectURL(blob) });
  }
  const chosen = (file: File | undefined) => (file ? setShot({ blob: file, url: URL.createObjectURL(file) }) : undefined);
  const text = copy.parts[part];

  if (shot) {
    return (
      <Screen
        key={`preview-${part}`}
        title={copy.previewTitle}
        step="repetir"
        className="capture-verify"
        actions={
          <>
            <button type="button" className="btn btn--primary" onClick={() => onShot(shot.blob)}>
              {copy.send}
            </button>
            <button type="button" className="btn btn--secondary" onClick={() => setShot(null)}>
              {copy.retake}
            </button>
          </>
        }
      >
        <p>{copy.previewIntro}</p>
        <img className="capture-preview" src={shot.url} alt={copy.imageAlt} />
      </Screen>
    );
  }
  return (
    <Screen
      key={`camera-${part}`}
      title={text.title}
      step="repetir"
      className="capture"
      actions={
        <>
          {cameraFailed ? null : (
            <button type="button" className="btn btn--primary" disabled={!ready} onClick={() => void capture()}>
              {copy.capture}
            </button>
          )}
          <button type="button" className={cameraFailed ? 'btn btn--primary' : 'btn btn--secondary'} onClick={() => fileRef.current?.click()}>
            {copy.choose}
          </button>
        </>
      }
    >
      {problem ? (
        <p className="notice__message" role="alert">
          {problem}
        </p>
      ) : null}
      {cameraFailed ? null : <CameraStage stream={stream} videoRef={videoRef} label={copy.videoLabel} guide={part === 'proof' ? 'page' : 'id1'} onReady={() => setReady(true)} onFailure={onFailure} />}
      <p className="capture-hint">{text.hint}</p>
      <input ref={fileRef} type="file" accept="image/jpeg,image/png,image/webp" hidden aria-label={copy.choose} onChange={(e) => chosen(e.currentTarget.files?.[0])} />
    </Screen>
  );
}
