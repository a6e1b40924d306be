import { useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { cropPercentages, keyboardCrop, moveCrop, normaliseCrop, previewWindow, resizeCrop, type Corner } from '../media/crop';
import type { Rect, Size } from '../media/geometry';
import { texts as capture } from '../i18n/es-MX/capture';
import { Screen } from './Screen';
import './capture.css';

interface CropAdjustProps {
  /** The capture (an object URL) and its size in pixels. */
  image: Size & { url: string };
  /** The starting crop: the document guide's rectangle. */
  initialCrop: Rect;
  /** Spec §9 "capture preview scale 1.5": the preview shows this much more than the starting crop. */
  previewScale: number;
  busy: boolean;
  onDone: (crop: Rect) => void;
  onRetake: () => void;
  step?: string;
}

type Drag = { kind: 'move' } | { kind: 'resize'; corner: Corner };

const corners: readonly Corner[] = ['nw', 'ne', 'sw', 'se'];

/**
 * Crop/adjust screen: the capture with a movable, resizable crop rectangle (pointer: drag the rectangle or
 * its corners; keyboard: arrows move it, Shift+arrows resize it, Alt for larger steps).
 */
export function CropAdjust({ image, initialCrop, previewScale, busy, onDone, onRetake, step }: CropAdjustProps) {
  const view = useMemo(() => previewWindow(image, initialCrop, previewScale), [image, initialCrop, previewScale]);
  const [crop, setCrop] = useState<Rect>(() => normaliseCrop(initialCrop, view));
  const previewRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ mode: Drag; pointerId: number; x: number; y: number; start: Rect } | null>(null);
  const keysId = useId();

  const toImagePixels = (dxScreen: number, dyScreen: number): [number, number] => {
    const element = previewRef.current;
    if (!element || element.clientWidth === 0 || element.clientHeight === 0) return [0, 0];
    return [(dxScreen * view.width) / element.clientWidth, (dyScreen * view.height) / element.clientHeight];
  };

  const startDrag = (mode: Drag) => (event: PointerEvent<HTMLElement>) => {
    if (busy || drag.current) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { mode, pointerId: event.pointerId, x: event.clientX, y: event.clientY, start: crop };
  };

  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const [dx, dy] = toImagePixels(event.clientX - current.x, event.clientY - current.y);
    setCrop(current.mode.kind === 'move' ? moveCrop(current.start, dx, dy, view) : resizeCrop(current.start, current.mode.corner, dx, dy, view));
  };

  const endDrag = (event: PointerEvent<HTMLElement>) => {
    if (drag.current?.pointerId === event.pointerId) drag.current = null;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (busy) return;
    const next = keyboardCrop(crop, event.key, { shift: event.shiftKey, large: event.altKey }, view);
    if (next) {
      event.preventDefault();
      setCrop(next);
    }
  };

  const box = cropPercentages(crop, view);
  const imageStyle = {
    width: `${(image.width / view.width) * 100}%`,
    height: `${(image.height / view.height) * 100}%`,
    left: `${(-view.x / view.width) * 100}%`,
    top: `${(-view.y / view.height) * 100}%`,
  };

  return (
    <Screen
      title={capture.adjust.title}
      step={step}
      className="capture-adjust"
      actions={
        <>
          <button type="button" className="btn btn--primary" disabled={busy} onClick={() => onDone(crop)}>
            {busy ? capture.camera.processing : capture.adjust.done}
          </button>
          <button type="button" className="btn btn--secondary" disabled={busy} onClick={onRetake}>
            {capture.adjust.retake}
          </button>
        </>
      }
    >
      <p>{capture.adjust.intro}</p>
      <div className="crop" ref={previewRef} style={{ aspectRatio: `${view.width} / ${view.height}` }}>
        <img className="crop__image" src={image.url} alt={capture.adjust.imageAlt} style={imageStyle} draggable={false} />
        <div
          className="crop__box"
          role="group"
          aria-label={capture.adjust.cropLabel}
          aria-describedby={keysId}
          tabIndex={0}
          style={{ left: `${box.left}%`, top: `${box.top}%`, width: `${box.width}%`, height: `${box.height}%` }}
          onKeyDown={onKeyDown}
          onPointerDown={startDrag({ kind: 'move' })}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
        >
          {corners.map((corner) => (
            <span
              key={corner}
              className={`crop__handle crop__handle--${corner}`}
              aria-hidden="true"
              onPointerDown={startDrag({ kind: 'resize', corner })}
              onPointerMove={onPointerMove}
              onPointerUp={endDrag}
              onPointerCancel={endDrag}
            />
          ))}
        </div>
      </div>
      <p id={keysId} className="capture-note">
        {capture.adjust.keys}
      </p>
      <p role="status" className="capture-note">
        {busy ? capture.adjust.preparing : null}
      </p>
    </Screen>
  );
}
