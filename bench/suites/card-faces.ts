/**
 * The generated INE cards that carry each of the 16 faces of @kyc/fixtures: the seed of each card, drawn for
 * REFERENCE (the generator draws the person from the seed and the day). Shared by the face and mask suites.
 */
export const REFERENCE = { y: 2026, m: 11, d: 26 };
export const CARD_SEEDS: Record<string, number> = {
  'hu-faceid': 1,
  'hu-detect-a': 2,
  'fa-s5-d': 3,
  'hu-detect-c': 6,
  'fa-s5-b': 11,
  'fa-s6-a': 15,
  'hu-detect-b': 17,
  'fa-s5-a': 20,
  'fa-s6-b': 22,
  'fa-s6-d': 26,
  'hu-detect-d': 32,
  'fa-s6-c': 33,
  'fa-s3-b': 49,
  'fa-s3-c': 58,
  'fa-s5-c': 104,
  'fa-s3-a': 105,
};
