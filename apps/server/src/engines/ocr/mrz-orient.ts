/**
 * The MRZ in any orientation: the straightened card is turned by each quarter turn in memory (a pixel
 * transposition, a few milliseconds), the OCR-free locator looks for MRZ rows in each, and the zones found
 * are read most promising first until one validates. A portrait photo is thus never assumed to lie one way:
 * the orientation whose MRZ validates wins.
 */
import type { StraightenedCard } from './geometry.js';
import type { Quad, RawImage } from './homography.js';
import { finishMrz, firstMrzRead, firstReadScore, firstReadValid, type FirstMrzRead, type MrzResult } from './mrz.js';
import { locateMrzBand, type MrzBand } from './mrz-locate.js';
import type { OcrPool } from './pool.js';

/**
 * The image turned `turns` quarter turns counterclockwise, which is how `straighten` reads a card with
 * `quarterTurns: turns` (its corners relabelled one place on per turn).
 */
export function turnImage(image: RawImage, turns: number): RawImage {
  const t = ((turns % 4) + 4) % 4;
  if (t === 0) return image;
  const { data, width, height } = image;
  const out = Buffer.alloc(width * height);
  const turned = t === 2 ? { width, height } : { width: height, height: width };
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      // Destination of source (x, y) for a counterclockwise turn by t quarters.
      const [dx, dy] = t === 1 ? [y, width - 1 - x] : t === 2 ? [width - 1 - x, height - 1 - y] : [height - 1 - y, x];
      out[dy * turned.width + dx] = data[row + x]!;
    }
  }
  return { data: out, width: turned.width, height: turned.height, channels: 1 };
}

/** The card read `turns` quarter turns further round: grey image turned, corners relabelled to match. */
export function turnCard(card: StraightenedCard, turns: number): StraightenedCard {
  const t = ((turns % 4) + 4) % 4;
  if (t === 0) return card;
  const quad = [0, 1, 2, 3].map((i) => card.quad[(i + t) % 4]!) as Quad;
  return { ...card, grey: turnImage(card.grey, t), quad };
}

export interface OrientedMrz {
  /** Quarter turns (counterclockwise) from the card as straightened to the one the MRZ reads upright on. */
  turns: number;
  card: StraightenedCard;
  band: MrzBand | null;
  mrz: MrzResult | null;
}

/** The image at half size (2x2 means): the locator needs rows of characters, not their detail. */
export function halfSize(image: RawImage): RawImage {
  const width = Math.floor(image.width / 2);
  const height = Math.floor(image.height / 2);
  const out = Buffer.alloc(width * height);
  const { data } = image;
  for (let y = 0; y < height; y++) {
    const a = 2 * y * image.width;
    const b = a + image.width;
    for (let x = 0; x < width; x++) {
      out[y * width + x] = (data[a + 2 * x]! + data[a + 2 * x + 1]! + data[b + 2 * x]! + data[b + 2 * x + 1]! + 2) >> 2;
    }
  }
  return { data: out, width, height, channels: 1 };
}

/** Orientations in the order they are tried: as straightened, upside down, then the two quarter turns. */
const ORDER = [0, 2, 1, 3];

/** The zone of the card turned `turns` quarter turns (located at half size, anywhere on the card), or null. */
export function locateTurned(small: RawImage, turns: number): MrzBand | null {
  const band = locateMrzBand(turnImage(small, turns), 0);
  return band && { top: band.top * 2, bottom: band.bottom * 2, lines: band.lines };
}

/** Candidate orientations: every turn where the locator finds MRZ rows. */
export function locateInEveryOrientation(card: StraightenedCard): Array<{ turns: number; band: MrzBand }> {
  const small = halfSize(card.grey);
  return ORDER.flatMap((turns) => {
    const band = locateTurned(small, turns);
    return band ? [{ turns, band }] : [];
  });
}

/**
 * The MRZ of the card in whichever orientation validates. Orientations are looked at one by one (as
 * straightened first, which is right for most photos); each zone found gets one read, and the first that
 * validates wins, else the one with most check digits right is read again the slow way. `fallback` reads the
 * bottom of the card as it is when the locator finds nothing anywhere (a back the person says carries an MRZ).
 * A zone read with no check digit right is no MRZ (texture, other print).
 */
export async function readMrzAnyOrientation(pool: OcrPool, card: StraightenedCard, fallback: boolean): Promise<OrientedMrz> {
  const none: OrientedMrz = { turns: 0, card, band: null, mrz: null };
  const small = halfSize(card.grey);
  const tried: Array<{ turns: number; grey: RawImage; first: FirstMrzRead }> = [];
  for (const turns of ORDER) {
    const band = locateTurned(small, turns);
    if (!band) continue;
    const grey = turnImage(card.grey, turns);
    const first = await firstMrzRead(pool, grey, band);
    tried.push({ turns, grey, first });
    if (firstReadValid(first)) break;
  }
  const located = tried.length > 0;
  if (!located && fallback) tried.push({ turns: 0, grey: card.grey, first: await firstMrzRead(pool, card.grey, null) });
  const best = tried.reduce<(typeof tried)[number] | undefined>((a, b) => (!a || firstReadScore(b.first) > firstReadScore(a.first) ? b : a), undefined);
  // Nothing located and nothing checking in the bottom of the card: no zone to read further.
  if (!best || (!located && firstReadScore(best.first) <= 0)) return none;
  const mrz = await finishMrz(pool, best.grey, best.first);
  if (!mrz || Object.values(mrz.checkDigits).every((ok) => !ok)) return none;
  return { turns: best.turns, card: turnCard(card, best.turns), band: best.first.band, mrz };
}
