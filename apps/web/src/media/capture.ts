import { pixelRect, type Rect } from './geometry';
import { qualityThresholds, rgbaToGrey, type GreyImage } from './quality';

/** Spec §9 image rules for the ID. */
export const idImage = {
  /** "capture delay 1.35 s for ID": the focus settles after the button press. */
  captureDelayMs: 1350,
  type: 'image/png',
  /** "ID as PNG (quality 1 after crop, 0.9 on capture)" (PNG is lossless; the values are passed as the spec says). */
  captureQuality: 0.9,
  cropQuality: 1,
  /** "capture preview scale 1.5". */
  previewScale: 1.5,
  /**
   * Longest side of the uploaded crop. A 4096x2160 capture cropped to the card would give a PNG far over the
   * server's upload limit (15 MiB by default); the OCR reads best at about 2000 px anyway.
   */
  maxUploadSide: 2400,
} as const;

function context2d(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const context = canvas.getContext('2d', { willReadFrequently: false });
  if (!context) throw new Error('2D canvas is not available');
  return context;
}

/** The current video frame at the stream's full resolution. */
export function grabFrame(video: HTMLVideoElement): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  if (canvas.width === 0 || canvas.height === 0) throw new Error('the video has no frame yet');
  context2d(canvas).drawImage(video, 0, 0, canvas.width, canvas.height);
  return canvas;
}

export function canvasToBlob(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the image could not be encoded'))), type, quality);
  });
}

/** A grey copy of the frame at most analysisMaxWidth wide (the browser's smoothing downscales it). */
export function analysisImage(frame: HTMLCanvasElement, maxWidth: number = qualityThresholds.analysisMaxWidth): { image: GreyImage; scale: number } {
  const scale = Math.min(1, maxWidth / frame.width);
  const width = Math.max(1, Math.round(frame.width * scale));
  const height = Math.max(1, Math.round(frame.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('2D canvas is not available');
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  context.drawImage(frame, 0, 0, width, height);
  const { data } = context.getImageData(0, 0, width, height);
  return { image: rgbaToGrey(data, width, height), scale };
}

/** Output size of a crop: its own size, scaled down so that its longest side is at most maxSide. */
export function cropOutputSize(crop: { width: number; height: number }, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(crop.width, crop.height));
  return { width: Math.max(1, Math.round(crop.width * scale)), height: Math.max(1, Math.round(crop.height * scale)) };
}

/** The `rect` part of the source, at the source's resolution (scaled down to maxSide when larger). */
export function cropCanvas(source: HTMLCanvasElement, rect: Rect, maxSide: number = Number.POSITIVE_INFINITY): HTMLCanvasElement {
  const r = pixelRect(rect, source);
  if (r.width === 0 || r.height === 0) throw new Error('empty crop');
  const size = cropOutputSize(r, maxSide);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = context2d(canvas);
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, r.x, r.y, r.width, r.height, 0, 0, size.width, size.height);
  return canvas;
}
