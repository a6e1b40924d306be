/**
 * The day the journeys' generated cards are drawn for. Fixed, not today: the generator draws its person (and face)
 * from the seed and this day, so a moving date drew someone else every day, now and then with an expired card, and
 * the journeys then failed at the validity check. Cards drawn for this day are valid until 2030 (seed 21) and 2032
 * (seed 22); proofs of address, whose age is checked against today, are still drawn for today.
 */
export const fixtureDay = '2026-11-26';
