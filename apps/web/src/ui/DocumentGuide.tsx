import { documentMask, type DocumentFormat, type Size } from '../media/geometry';

/** Corner radius of an ID-1 card (3.18 mm of 85.6 mm), as a share of the guide's width. */
const cornerShare = 3.18 / 85.6;

function roundedRectPath(x: number, y: number, w: number, h: number, r: number): string {
  return [
    `M${x + r} ${y}`,
    `H${x + w - r}`,
    `A${r} ${r} 0 0 1 ${x + w} ${y + r}`,
    `V${y + h - r}`,
    `A${r} ${r} 0 0 1 ${x + w - r} ${y + h}`,
    `H${x + r}`,
    `A${r} ${r} 0 0 1 ${x} ${y + h - r}`,
    `V${y + r}`,
    `A${r} ${r} 0 0 1 ${x + r} ${y}`,
    'Z',
  ].join(' ');
}

/**
 * The document guide drawn over the live video: the frame shaded outside a card-shaped cutout. The SVG's
 * viewBox is the video frame in pixels, so the cutout is exactly the rectangle the quality check and the
 * crop use (documentMask). Decorative: the hint text next to it says what to do.
 */
export function DocumentGuide({ frame, format = 'id1' }: { frame: Size; format?: DocumentFormat }) {
  const mask = documentMask(frame, format);
  const radius = mask.width * cornerShare;
  const cutout = roundedRectPath(mask.x, mask.y, mask.width, mask.height, radius);
  const corner = Math.min(mask.width, mask.height) * 0.14;
  const { x, y, width: w, height: h } = mask;
  const corners = [
    `M${x} ${y + corner}V${y + radius}A${radius} ${radius} 0 0 1 ${x + radius} ${y}H${x + corner}`,
    `M${x + w - corner} ${y}H${x + w - radius}A${radius} ${radius} 0 0 1 ${x + w} ${y + radius}V${y + corner}`,
    `M${x + w} ${y + h - corner}V${y + h - radius}A${radius} ${radius} 0 0 1 ${x + w - radius} ${y + h}H${x + w - corner}`,
    `M${x + corner} ${y + h}H${x + radius}A${radius} ${radius} 0 0 1 ${x} ${y + h - radius}V${y + h - corner}`,
  ].join(' ');
  return (
    <svg
      className="document-guide"
      viewBox={`0 0 ${frame.width} ${frame.height}`}
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
      data-guide={`${mask.x},${mask.y},${mask.width},${mask.height}`}
    >
      <path className="document-guide__shade" fillRule="evenodd" d={`M0 0H${frame.width}V${frame.height}H0Z ${cutout}`} />
      <path className="document-guide__outline" d={cutout} vectorEffect="non-scaling-stroke" />
      <path className="document-guide__corners" d={corners} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
