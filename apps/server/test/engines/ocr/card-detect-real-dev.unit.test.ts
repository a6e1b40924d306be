// Card finding on photos of the real development set (../shared/data/real-dev, read in place, never copied).
// Skipped with a message when the set is absent.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { straighten } from '../../../src/engines/ocr/geometry.js';
import { REAL_DEV, realDevPresent, uploadable } from '../../support/real-dev.js';

const present = realDevPresent();
if (!present) console.log(`real-dev card-finding tests skipped: ${REAL_DEV} is absent`);

const straightened = async (file: string) => straighten(await uploadable(await readFile(path.join(REAL_DEV, file))), { cardWidth: 1000 });

describe.skipIf(!present)('card finding on real photos', () => {
  it('takes the infrared passport page, which fills the frame and is lit unevenly, whole (no card edge cutting its MRZ)', async () => {
    const card = await straightened('mrz/de_dienstpass_muster_ir.jpg');
    expect(card.geometry.cardFound).toBe(false);
    // The whole page: the straightened image keeps the photo's proportions (916 x 642).
    expect(card.grey.height).toBe(Math.round(1000 / (916 / 642)));
  });

  it('still finds the edges of the French ID card lying on a dark surface', async () => {
    const card = await straightened('ids/fr_cni/fr_cni2021_specimen_photo.jpg');
    expect(card.geometry.cardFound).toBe(true);
  });
});
