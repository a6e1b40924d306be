/** Row types of the face-video tables (features/face-video/migrations.ts). */
export interface VideoTokenCodesTable {
  id: string;
  uuid_trx: string;
  grantor_id: string;
  code_enc: string;
  /** 'otp' (issued with a face photo) or 'code' (without). */
  origin: string;
  created_at: string;
  expire_at: string;
  used_at: string | null;
  /** The digit schedule (JSON, encrypted); null for codes issued before migration 0007. */
  schedule_enc: string | null;
}

/** The print of an accepted reading (reading-print.ts), one per face-video evidence that matched. */
export interface VideoTokenReadingsTable {
  evidence_id: string;
  uuid_trx: string;
  grantor_id: string;
  /** ReadingPrint (JSON, encrypted). */
  print_enc: string;
  created_at: string;
}

export interface FaceVideoTables {
  video_token_codes: VideoTokenCodesTable;
  video_token_readings: VideoTokenReadingsTable;
}

declare module '../../store/schema.js' {
  interface Database extends FaceVideoTables {}
}
