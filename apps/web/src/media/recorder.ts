/**
 * MediaRecorder helpers. Spec §9: "Recording: mp4 on iOS, webm vp9 or vp8 otherwise". The choice is a pure
 * function of MediaRecorder.isTypeSupported, so it is tested without a browser.
 */
export const recorderMimeCandidates = {
  ios: ['video/mp4', 'video/mp4;codecs=avc1'],
  other: ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'],
} as const;

/** The first supported type for the platform, or null when none is (the recorder then uses its default). */
export function chooseRecorderMime(isTypeSupported: (mime: string) => boolean, ios: boolean): string | null {
  const candidates = ios ? recorderMimeCandidates.ios : recorderMimeCandidates.other;
  for (const mime of candidates) {
    try {
      if (isTypeSupported(mime)) return mime;
    } catch {
      // some engines throw on unknown codecs strings: treat as unsupported
    }
  }
  return null;
}

/** File extension of a recording for the multipart upload ('video/webm;codecs=vp8' → 'webm'). */
export function recordingExtension(mime: string): 'mp4' | 'webm' {
  return mime.toLowerCase().startsWith('video/mp4') ? 'mp4' : 'webm';
}

export function recorderSupported(): boolean {
  return typeof MediaRecorder !== 'undefined';
}

export interface Recording {
  /** The recorder's actual type (with codecs), known once it started. */
  readonly mimeType: string;
  /** Stops and resolves with the whole recording. */
  stop(): Promise<Blob>;
  /** Stops and drops the data. */
  cancel(): void;
}

/** Starts recording the stream's video; data is collected every second so a stop never loses much. */
export function startRecording(stream: MediaStream, ios: boolean): Recording {
  const mime = chooseRecorderMime((type) => MediaRecorder.isTypeSupported(type), ios);
  const recorder = mime ? new MediaRecorder(stream, { mimeType: mime }) : new MediaRecorder(stream);
  const chunks: Blob[] = [];
  let cancelled = false;
  recorder.addEventListener('dataavailable', (event) => {
    if (!cancelled && event.data.size > 0) chunks.push(event.data);
  });
  recorder.start(1000);
  const type = () => (recorder.mimeType || mime || (ios ? 'video/mp4' : 'video/webm')).split(';')[0] ?? 'video/webm';
  return {
    get mimeType() {
      return recorder.mimeType || mime || '';
    },
    stop() {
      return new Promise<Blob>((resolve, reject) => {
        if (recorder.state === 'inactive') {
          resolve(new Blob(chunks, { type: type() }));
          return;
        }
        recorder.addEventListener('stop', () => resolve(new Blob(chunks, { type: type() })), { once: true });
        recorder.addEventListener('error', (event) => reject(event), { once: true });
        recorder.stop();
      });
    },
    cancel() {
      cancelled = true;
      chunks.length = 0;
      if (recorder.state !== 'inactive') recorder.stop();
    },
  };
}
