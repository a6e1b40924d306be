import type { Size } from '../../media/geometry';

/** The oval's height as a share of the frame's, and its width-to-height ratio in pixels (an upright face). */
const ovalHeight = 0.72;
const ovalAspect = 0.75;

/** The oval in the 100x100 units of the stretched SVG, so that it keeps a face's shape on any frame. */
export function ovalOf(frame: Size | null): { cx: number; cy: number; rx: number; ry: number } {
  const ry = (ovalHeight * 100) / 2;
  const widthShare = frame && frame.width > 0 ? (ovalAspect * ovalHeight * frame.height) / frame.width : 0.54;
  return { cx: 50, cy: 48, rx: (Math.min(widthShare, 0.9) * 100) / 2, ry };
}

/** The face mask over the camera: the frame shaded outside an upright oval where the face goes. */
export function FaceGuide({ active, frame }: { active: boolean; frame: Size | null }) {
  const { cx, cy, rx, ry } = ovalOf(frame);
  const oval = `M${cx - rx} ${cy}a${rx} ${ry} 0 1 0 ${2 * rx} 0a${rx} ${ry} 0 1 0 ${-2 * rx} 0Z`;
  return (
    <svg className={active ? 'face-guide face-guide--active' : 'face-guide'} viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
      <path className="face-guide__shade" fillRule="evenodd" d={`M0 0H100V100H0Z${oval}`} />
      <path className="face-guide__outline" d={oval} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/** Small pictograms of the intro tips (no glasses, no cap, no face mask, no backlight). */
const tipShapes = {
  glasses: (
    <>
      <circle cx="7" cy="13" r="3.5" />
      <circle cx="17" cy="13" r="3.5" />
      <path d="M10.5 13h3M3.5 13 2 10M20.5 13 22 10" />
    </>
  ),
  cap: <path d="M4 15a8 8 0 0 1 16 0zM12 7V5.5M20 15h2.5" />,
  mask: (
    <>
      <path d="M6 9.5h12v4a6 4 0 0 1-12 0z" />
      <path d="M6 11 3 9.5M18 11l3-1.5M9 12.5h6" />
    </>
  ),
  backlight: (
    <>
      <circle cx="12" cy="14" r="3" />
      <path d="M12 3v3M5 6l2 2M19 6l-2 2M3 13h3M18 13h3M6 21a6 6 0 0 1 12 0" />
    </>
  ),
} as const;

export function TipIcon({ name }: { name: keyof typeof tipShapes }) {
  return (
    <svg className="icon face-tip-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <g fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
        {tipShapes[name]}
      </g>
      <path d="M3.5 3.5 20.5 20.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" opacity={name === 'backlight' ? 0 : 1} />
    </svg>
  );
}
