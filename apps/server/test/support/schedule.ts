/**
 * The TEST-ONLY fixed digit schedule (VIDEO_TOKEN_TEST_SCHEDULE_MS, accepted only under NODE_ENV=test, as vitest
 * runs): every code of a test app started with testScheduleEnv carries it, so that videos generated before the
 * code was issued can follow it (features/face-video/schedule.ts).
 */
export const testScheduleEnv = { NODE_ENV: 'test', VIDEO_TOKEN_TEST_SCHEDULE_MS: '1800,1200,900,1500' };
export const testSchedule = { digitsMs: [1800, 3000, 3900, 5400], stopMs: 7600 };
/** writeFaceVideo options of a reading that follows it. */
export const followsTestSchedule = { digitTimesMs: testSchedule.digitsMs, reactionMs: [420, 470, 400, 450] };

/**
 * For a test that sends one generated recording several times for one holder (its subject is something else: the
 * camera record, the attempts, the link's limit): the demo grantor stops refusing a reading it has already accepted
 * (RECHAZAR_LECTURA_REPETIDA, on by default), which such a test would otherwise trip on purpose-free. The refusal
 * itself is tested by video-token-replay.api.test.ts.
 */
export const repeatedReadingsAllowed = { RECHAZAR_LECTURA_REPETIDA: 'false' } as const;
