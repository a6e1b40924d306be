import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { compactTimestamp } from '../../domain/evidence.js';
import { evidenceKind, type RealtimeRecordingRecord } from '../../domain/evidence-kinds.js';
import type { Deps } from '../../deps.js';
import { addEvidence } from '../../store/evidence.js';
import type { RealtimeAuth } from './handlers.js';
import type { FinishedRecording } from './session.js';

export interface StoredRecording {
  blobKey: string;
  sha256: string;
  size: number;
  evidenceId: string;
}

const folders: Record<string, string> = { VIDEO_TOKEN: 'video_token', VIDEO_TOKEN_PDF: 'video_token', HOLOGRAMA: 'holograma' };

/** `<grantor>/<user>/<video_token|holograma>/<transaction>-<time>-<suffix>.webm` */
export function recordingKey(parts: { grantorId: string; uuidUser: string; uuidTrx: string; type: string; at: Date; suffix: string }): string {
  const folder = folders[parts.type] ?? 'tiempo_real';
  return `${parts.grantorId}/${parts.uuidUser}/${folder}/${parts.uuidTrx}-${compactTimestamp(parts.at)}-${parts.suffix}.webm`;
}

/**
 * Keeps a finished recording as evidence before anything decides on it: the webm encrypted in the blob store and
 * a record of it. When the record cannot be written the blob is removed again.
 */
export async function storeRecording(
  { db, cipher, blobs }: Pick<Deps, 'db' | 'cipher' | 'blobs'>,
  recording: FinishedRecording,
  type: string,
  auth: RealtimeAuth,
  now: Date = new Date(),
): Promise<StoredRecording> {
  const bytes = await readFile(recording.path);
  const key = recordingKey({
    grantorId: auth.grantor.id,
    uuidUser: auth.transaction.uuidUser,
    uuidTrx: auth.transaction.uuidTrx,
    type,
    at: now,
    suffix: randomBytes(4).toString('hex'),
  });
  const stored = await blobs.put(key, bytes, { contentType: 'video/webm' });
  const payload: RealtimeRecordingRecord = {
    type,
    contentType: 'video/webm',
    size: stored.size,
    durationMs: recording.durationMs,
    tracks: recording.tracks,
    connectionId: recording.connectionId,
  };
  try {
    const evidenceId = await addEvidence(
      db,
      cipher,
      { uuidTrx: auth.transaction.uuidTrx, grantorId: auth.grantor.id, kind: evidenceKind.realtimeRecording, blobKey: stored.key, sha256: stored.sha256, payload },
      now,
    );
    return { blobKey: stored.key, sha256: stored.sha256, size: stored.size, evidenceId };
  } catch (error) {
    await blobs.delete(stored.key).catch(() => undefined);
    throw error;
  }
}
