import { useEffect, useRef, useState } from 'react';
import { stopStream } from './camera';
import { CameraError, classifyCameraError, type CameraErrorKind } from './camera-select';

/**
 * Holds a camera stream while `enabled`: opens it with `open`, reports failures (classified) through
 * `onFailure`, and stops every track when disabled or unmounted.
 */
export function useCamera(enabled: boolean, open: () => Promise<MediaStream>, onFailure: (kind: CameraErrorKind, error: unknown) => void): MediaStream | null {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const openRef = useRef(open);
  const failureRef = useRef(onFailure);
  openRef.current = open;
  failureRef.current = onFailure;

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    let current: MediaStream | null = null;
    // Fired when the system takes the camera away (another app, unplugged); our own stop() does not fire it.
    const onEnded = () => {
      if (!cancelled) failureRef.current('inUse', new CameraError('inUse', 'the video track ended'));
    };
    openRef.current().then(
      (opened) => {
        if (cancelled) {
          stopStream(opened);
          return;
        }
        current = opened;
        opened.getVideoTracks()[0]?.addEventListener('ended', onEnded);
        setStream(opened);
      },
      (error: unknown) => {
        if (!cancelled) failureRef.current(classifyCameraError(error), error);
      },
    );
    return () => {
      cancelled = true;
      current?.getVideoTracks()[0]?.removeEventListener('ended', onEnded);
      stopStream(current);
      setStream(null);
    };
  }, [enabled]);

  return stream;
}
