import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { waitForFrames } from '../media/camera';
import { containRect, type DocumentFormat, type Size } from '../media/geometry';
import { texts as capture } from '../i18n/es-MX/capture';
import { DocumentGuide } from './DocumentGuide';
import { LoadingState } from './LoadingState';
import { useElementSize } from './useElementSize';

interface CameraStageProps {
  stream: MediaStream | null;
  videoRef: RefObject<HTMLVideoElement | null>;
  label: string;
  /** Draw the document guide for this format (none when omitted). */
  guide?: DocumentFormat;
  /** Mirror the preview (a user-facing desktop camera); captures are never mirrored. */
  mirrored?: boolean;
  /** The stream shows frames (called again after a resolution change). */
  onReady?: (frame: Size) => void;
  /** No frame within the camera-check timeout, or the video would not play. */
  onFailure: (error: unknown) => void;
  children?: ReactNode;
}

/**
 * The live camera on a dark stage, letterboxed (object-fit: contain) so that what the user sees is the
 * whole frame that will be captured, with the document guide laid exactly over it.
 */
export function CameraStage({ stream, videoRef, label, guide, mirrored = false, onReady, onFailure, children }: CameraStageProps) {
  const stageRef = useRef<HTMLDivElement>(null);
  const stage = useElementSize(stageRef);
  const [frame, setFrame] = useState<Size | null>(null);
  const callbacks = useRef({ onReady, onFailure });
  callbacks.current = { onReady, onFailure };

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !stream) return;
    const controller = new AbortController();
    video.srcObject = stream;
    const measure = () => {
      if (video.videoWidth > 0 && video.videoHeight > 0) {
        const size = { width: video.videoWidth, height: video.videoHeight };
        setFrame((previous) => (previous && previous.width === size.width && previous.height === size.height ? previous : size));
        return size;
      }
      return null;
    };
    video.play().catch(() => {
      // Autoplay of a muted inline video is allowed; a refusal shows up as missing frames below.
    });
    waitForFrames(video, undefined, controller.signal).then(
      () => {
        const size = measure();
        if (size) callbacks.current.onReady?.(size);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) callbacks.current.onFailure(error);
      },
    );
    // Phones rotate the stream when the device turns.
    video.addEventListener('resize', measure);
    return () => {
      controller.abort();
      video.removeEventListener('resize', measure);
      video.srcObject = null;
      setFrame(null);
    };
  }, [stream, videoRef]);

  const box = frame && stage ? containRect(stage, frame) : null;
  return (
    <div className="camera-stage" ref={stageRef}>
      <div className="camera-stage__frame" style={box ? { left: box.x, top: box.y, width: box.width, height: box.height } : { inset: 0 }}>
        <video
          ref={videoRef}
          className={mirrored ? 'camera-stage__video camera-stage__video--mirrored' : 'camera-stage__video'}
          aria-label={label}
          autoPlay
          muted
          playsInline
          disablePictureInPicture
        />
        {frame && guide ? <DocumentGuide frame={frame} format={guide} /> : null}
        {children}
      </div>
      {!frame ? (
        <div className="camera-stage__loading">
          <LoadingState label={capture.camera.starting} />
        </div>
      ) : null}
    </div>
  );
}
