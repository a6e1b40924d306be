/**
 * The evidence a transaction leaves behind, by kind, with the payload each kind stores (encrypted, see
 * store/evidence.ts). Scoring, the report PDF and the evidence bundle read these; each capability writes its own.
 * Payloads are JSON; fields may be added, never renamed.
 */
import type { CameraRecord } from './camera.js';
import type { ContainerInfo } from '../engines/media/container.js';
export const evidenceKind = {
  /** ID front read (features/id-capture/ocr-routes.ts): { verdict, documentType, ocrData, ocrBack?, extra, mrz?, warnings, ... }. */
  idFront: 'ocr_frente',
  /** ID back read (features/id-capture/ocr-routes.ts): same shape, mrz carries the check-digit result. */
  idBack: 'ocr_reverso',
  /** A back refused (unreadable, or not the back of the card whose front was read): same shape, kept apart. */
  idBackRefused: 'ocr_reverso_rechazado',
  /** Holder's face cropped from the ID front (blob only). */
  holderPhoto: 'rostro_identificacion',
  /** Proof-of-address upload (blob only). */
  proofOfAddress: 'comprobante_domicilio',
  /** What was read from the proof of address: ProofReading. */
  proofReading: 'comprobante_lectura',
  /** CURP check: CurpCheck. */
  renapo: 'renapo',
  /** INE data check: IneCheck. */
  ine: 'ine',
  /** Hologram calibration video measure: HologramMeasure. */
  hologram: 'holograma',
  /** One face-video decision: VideoTokenDecision (the video itself is the blob). */
  videoToken: 'video_token',
  /** The data the user confirmed (data_user), as saved by the flow. */
  userData: 'data_user',
  /** A consent accepted: ConsentAcceptance. */
  consent: 'consentimiento',
  /** Generated documents (clause, authorization, report): DocumentRecord per document. */
  document: 'documento',
  /** A mobile number proved by an SMS code (credit-history consent): PhoneVerification. */
  phoneVerified: 'telefono_verificado',
  /** A recording received by the real-time media server (blob: the webm): RealtimeRecordingRecord. */
  realtimeRecording: 'grabacion_tiempo_real',
} as const;

export type EvidenceKind = (typeof evidenceKind)[keyof typeof evidenceKind];

/** A check that can pass, fail, or not have been possible (no input, no engine configured). */
export type CheckOutcome = 'passed' | 'failed' | 'not_checked';

export interface CurpCheck {
  curp: string;
  outcome: CheckOutcome;
  /** Each rule with its result: structure, check digit, name initials, birth date, sex, state. */
  checks: { rule: string; passed: boolean; detail: string }[];
  /** 'local' when only the rules ran; the gateway's name when an external RENAPO service answered. */
  source: string;
}

export interface IneCheck {
  outcome: CheckOutcome;
  checks: { rule: string; passed: boolean; detail: string }[];
  source: string;
}

export interface HologramMeasure {
  outcome: CheckOutcome;
  /** Change of specular highlights over the tracked document region, 0..1. */
  highlightChange: number;
  framesAnalysed: number;
  detail: string;
}

export interface ProofReading {
  outcome: CheckOutcome;
  holderName?: string;
  street?: string;
  settlement?: string;
  postalCode?: string;
  /** ISO date YYYY-MM-DD. */
  issueDate?: string;
  exteriorNumber?: string;
  interiorNumber?: string;
  municipality?: string;
  state?: string;
  /** Something was read from the image (false: unreadable, a PDF, or the engine was busy). */
  read?: boolean;
  /** MESES_VIGENCIA_COMPROBANTE applied. */
  maxAgeMonths?: number;
  /** Why nothing was read (not PII). */
  detail?: string;
  /** Null when either name is unknown. */
  nameMatchesId: boolean | null;
  /** Issued within MESES_VIGENCIA_COMPROBANTE months; null when no date was read. */
  recent: boolean | null;
}

export interface VideoTokenDecision {
  match: boolean;
  /** Cosine similarity of the best frames against the ID photo, and the threshold applied. */
  faceScore: number | null;
  threshold: number;
  /** When in the video (ms from its first frame) the frames compared with the ID photo were taken. */
  describedFramesMs?: number[];
  liveness: { passed: boolean; spoof: boolean; signals: Record<string, number | boolean | string> };
  /** verified true/false when a speech engine ran; null with the reason when none could (not installed, refused, failed). */
  spokenCode: { verified: boolean | null; engine: string; detail: string /** The digits understood, when one ran. */; heard?: string };
  /** The section 8 message when the decision was not a match. */
  message?: string;
  service_call?: string;
  /** The camera as the browser reported it (label, settings) and whether it names a virtual camera (camera.ts). */
  camera?: CameraRecord;
  /** Whether the uploaded file is what a browser's MediaRecorder writes (container.ts); real-time recordings are not checked. */
  recorder?: { checked: boolean; consistent: boolean | null; origin: string; detail: string; container?: ContainerInfo; refused: boolean };
  /**
   * An accepted reading compared with the same holder's earlier accepted ones (features/face-video/reading-print.ts):
   * how many, the one it repeats (null when none), and whether that refused it (RECHAZAR_LECTURA_REPETIDA).
   */
  earlierReadings?: { compared: number; repeated: { uuidTrx: string; evidenceId: string } | null; refused: boolean };
}

export interface ConsentAcceptance {
  /** terminos, clausula, autorizacion, consulta_historial. */
  consent: string;
  version: string;
  sha256: string;
  acceptedAt: string;
  ip?: string;
  userAgent?: string;
}

export interface RealtimeRecordingRecord {
  /** VIDEO_TOKEN, VIDEO_TOKEN_PDF or HOLOGRAMA: the decision it was handed to. */
  type: string;
  contentType: 'video/webm';
  size: number;
  durationMs: number;
  tracks: string[];
  connectionId: string;
}

export interface DocumentRecord {
  name: 'clausula' | 'autorizacion' | 'reporte';
  sha256: string;
}

export interface PhoneVerification {
  areaCode: string;
  number: string;
  verifiedAt: string;
}
