// The front/back rule (features/id-capture/same-card.ts) on real reads of the generated cards: every INE model
// the fixtures draw, clean and as a phone photo. Genuine pairs must never be refused; the front shown twice and
// another person's back must never be accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocument, degrade, INE_MODELS, parseIsoDate, rng, type DegradationKind } from '@kyc/fixtures';
import { createOcrEngine } from '../../../src/engines/ocr/engine.js';
import type { OcrEngine, OcrResult } from '../../../src/engines/ocr/types.js';
import { judgeRead } from '../../../src/features/id-capture/id-reading.js';
import { sameCard } from '../../../src/features/id-capture/same-card.js';

const REFERENCE_DATE = '2026-11-26';
const CARDS_PER_MODEL = 2;
const VARIANTS: Array<'clean' | DegradationKind> = ['clean', 'phone'];
let engine: OcrEngine;

beforeAll(async () => {
  engine = await createOcrEngine({ now: () => new Date(`${REFERENCE_DATE}T12:00:00Z`) });
}, 60_000);
afterAll(async () => engine?.close());

async function sides(model: (typeof INE_MODELS)[number], index: number, variant: 'clean' | DegradationKind) {
  const doc = await buildDocument('ine', index, { seed: 'same-card', referenceDate: parseIsoDate(REFERENCE_DATE), ineModel: model });
  const image = async (side: 'front' | 'back') => {
    const png = doc.sides.find((s) => s.side === side)!.png;
    return variant === 'clean' ? png : (await degrade(png, variant, rng(doc.label, side, variant))).png;
  };
  return { front: await image('front'), back: await image('back') };
}

/** The route's decision on a back (read-side.ts): the read's own verdict, then the card it belongs to. */
function backAccepted(front: OcrResult, back: OcrResult): { accepted: boolean; why: string; readAlone?: boolean } {
  const verdict = judgeRead(back, { side: 'back', toleranceUsed: false });
  if (verdict.kind === 'rejected') return { accepted: false, why: verdict.reason, readAlone: false };
  const card = sameCard(
    { documentType: front.documentType, side: 'front', ocrData: front.ocrData },
    { documentType: back.documentType, side: back.side, ocrData: back.ocrData, mrzLines: back.mrz?.lines },
  );
  return card.same ? { accepted: true, why: 'same card', readAlone: true } : { accepted: false, why: `${card.reason} (${card.detail})`, readAlone: true };
}

describe('one card, front and back, on the generated INE cards', () => {
  it("refuses no genuine pair, accepts no front twice and no other card's back", async () => {
    const tally = {
      pairs: 0,
      pairsUnreadable: 0,
      pairsRefused: [] as string[],
      frontTwice: 0,
      frontTwiceAccepted: [] as string[],
      otherBack: 0,
      otherBackAccepted: [] as string[],
      byReadAlone: { frontTwice: 0, otherBack: 0 },
    };
    for (const model of INE_MODELS) {
      for (const variant of VARIANTS) {
        const cards = await Promise.all(Array.from({ length: CARDS_PER_MODEL }, (_, i) => sides(model, i, variant)));
        for (let i = 0; i < cards.length; i++) {
          const label = `${model} ${variant} #${i}`;
          const card = cards[i]!;
          const front = await engine.read({ image: card.front, side: 'front' });
          if (judgeRead(front, { side: 'front', toleranceUsed: false }).kind === 'rejected') {
            tally.pairsUnreadable++;
            continue;
          }
          const own = await engine.read({ image: card.back, side: 'back', frontData: front.ocrData });
          const ownVerdict = judgeRead(own, { side: 'back', toleranceUsed: false });
          if (ownVerdict.kind === 'rejected') tally.pairsUnreadable++;
          else {
            tally.pairs++;
            const decision = backAccepted(front, own);
            if (!decision.accepted) tally.pairsRefused.push(`${label}: ${decision.why}`);
          }
          tally.frontTwice++;
          const again = await engine.read({ image: card.front, side: 'back', frontData: front.ocrData });
          const twice = backAccepted(front, again);
          if (twice.accepted) tally.frontTwiceAccepted.push(label);
          // What the read's own verdict accepted (before this rule, every one of these was taken as the back).
          if (twice.readAlone) tally.byReadAlone.frontTwice++;
          tally.otherBack++;
          const other = cards[(i + 1) % cards.length]!;
          const foreign = await engine.read({ image: other.back, side: 'back', frontData: front.ocrData });
          const foreignDecision = backAccepted(front, foreign);
          if (foreignDecision.accepted) tally.otherBackAccepted.push(label);
          if (foreignDecision.readAlone) tally.byReadAlone.otherBack++;
        }
      }
    }
    console.log(
      `same-card on generated INE (${INE_MODELS.join(', ')}; ${VARIANTS.join(', ')}; ${CARDS_PER_MODEL} cards each): ` +
        `genuine pairs read ${tally.pairs}, refused ${tally.pairsRefused.length} (unreadable side, not judged: ${tally.pairsUnreadable}); ` +
        `front twice ${tally.frontTwice}, accepted ${tally.frontTwiceAccepted.length} (passed the read's own verdict: ${tally.byReadAlone.frontTwice}); ` +
        `other person's back ${tally.otherBack}, accepted ${tally.otherBackAccepted.length} (passed the read's own verdict: ${tally.byReadAlone.otherBack})`,
    );
    expect(tally.pairsRefused).toEqual([]);
    expect(tally.frontTwiceAccepted).toEqual([]);
    expect(tally.otherBackAccepted).toEqual([]);
    expect(tally.pairs).toBeGreaterThanOrEqual(INE_MODELS.length * CARDS_PER_MODEL);
  }, 900_000);
});
