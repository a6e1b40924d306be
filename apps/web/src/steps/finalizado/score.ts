/** Traffic-light score of docs/flow.md §4 "Score flag". */
export type ScoreFlag = 'GREEN' | 'YELLOW' | 'RED';

export interface ScoreRule {
  rule: string;
  passed: boolean;
  detail: string;
}

export interface Score {
  flag: ScoreFlag;
  /** The rules that decided it (the call's payload.Fields), sent back as the e-mail's detailsScore. */
  fields: ScoreRule[];
}

/** Spec §9 "Score retry cap 15, delay 200 ms". */
export const scorePolicy = { maxTries: 15, delayMs: 200 } as const;

/** "default RED until fetched". */
export const defaultFlag: ScoreFlag = 'RED';

export function isScoreFlag(value: unknown): value is ScoreFlag {
  return value === 'GREEN' || value === 'YELLOW' || value === 'RED';
}

export type ScoreOutcome =
  | { kind: 'scored'; score: Score; tries: number }
  /** No flag after the cap: RED is shown and score_check is reported failed ('Sin valores en el score'). */
  | { kind: 'unavailable'; flag: ScoreFlag; tries: number; lastError: string };

export interface PollDeps {
  /** One query_score call: the payload's flag and Fields, or a throw. */
  fetchScore: () => Promise<{ flag?: unknown; Fields?: unknown }>;
  sleep: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

function rulesOf(fields: unknown): ScoreRule[] {
  if (!Array.isArray(fields)) return [];
  return fields.filter((f: unknown): f is ScoreRule => typeof f === 'object' && f !== null && typeof (f as ScoreRule).rule === 'string' && typeof (f as ScoreRule).passed === 'boolean');
}

/**
 * "Polled: on no flag or an error a counter rises and a retry runs after 200 ms while the counter is under 15.
 * Beyond that the step score_check is reported failed." So at most 15 calls, 200 ms apart.
 */
export async function pollScore({ fetchScore, sleep, signal }: PollDeps, policy = scorePolicy): Promise<ScoreOutcome> {
  let failures = 0;
  let lastError = 'no flag';
  for (;;) {
    signal?.throwIfAborted();
    try {
      const payload = await fetchScore();
      if (isScoreFlag(payload.flag)) return { kind: 'scored', score: { flag: payload.flag, fields: rulesOf(payload.Fields) }, tries: failures + 1 };
      lastError = 'no flag';
    } catch (error) {
      if (signal?.aborted) throw error;
      lastError = error instanceof Error ? error.message : String(error);
    }
    failures += 1;
    if (failures >= policy.maxTries) return { kind: 'unavailable', flag: defaultFlag, tries: failures, lastError };
    await sleep(policy.delayMs);
  }
}
