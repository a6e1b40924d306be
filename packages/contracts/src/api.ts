import { z } from 'zod';
import { realtimeRecordingTypes, routes } from './routes.js';
import { apikeyHeader, envelope, grantorParam, trxHeaders, userDatum, uuid, type MultipartField } from './common.js';

/**
 * Every call of docs/flow.md §7 with its method, path and payloads. The concrete paths are ours (the spec leaves them
 * out); the wire names are the spec's. The web client calls only through these definitions.
 */
export interface CallDefinition {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  headers?: z.ZodObject;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  multipart?: Record<string, MultipartField>;
  response: z.ZodType;
}

const lifecycleEventBody = z.object({
  trx_id: uuid,
  company_id: z.string().max(100),
  client_id: uuid,
  step: z.string().min(1).max(100),
  event: z.string().max(10_000),
  origin: z.enum(['celd', 'celd-cl']),
  nombreOtorgante: z.string().max(300).optional(),
  nombreCompleto: z.string().max(300).optional(),
  telefono: z.string().max(40).optional(),
  correoElectronico: z.string().max(320).optional(),
  bandera: z.string().max(50).optional(),
});

const auditEventBody = z.object({
  uuid_clt: uuid,
  uuid_trx: uuid,
  uuid_oto: z.string().max(100),
  apikey: z.string().max(200).optional(),
  paso: z.string().min(1).max(100),
  tipo: z.string().min(1).max(50),
  dato: z.string().max(10_000),
  finished: z.boolean().default(false),
  time_stamp: z.string().max(50).optional(),
});

const ocrFront = z.record(z.string(), z.union([z.string(), z.boolean(), z.number(), z.null()]));
const ocrBack = ocrFront;
// project: `schedule` is added to the spec's code fields: when each shown digit appears and when the recording
// stops, in ms from the recording's start, drawn at random by the server for each code (docs/decisions.md).
// `prompts`: head turns asked after the digits when the grantor sets MOVIMIENTOS_VIDEO_TOKEN (absent otherwise).
const challengeSchedule = z.object({
  digitsMs: z.array(z.number().int().nonnegative()).min(1),
  stopMs: z.number().int().positive(),
  prompts: z
    .array(z.object({ motion: z.enum(['left', 'right']), atMs: z.number().int().nonnegative() }))
    .max(2)
    .optional(),
});
const codes = z.object({ code: z.string().regex(/^\d{4,}$/), created: z.string(), expire: z.string(), schedule: challengeSchedule });
const faceResult = z.object({
  match: z.boolean(),
  liveness: z.union([z.boolean(), z.string()]),
  documentLink: z.string().optional(),
});
/**
 * The result-link flow's credential (the `token` of the /pdf_token URL) in X-Consumer-Custom-ID: it replaces the
 * api key and transaction headers. Lower case: HTTP header names arrive lower-cased.
 */
const linkHeaders = z.object({ 'x-consumer-custom-id': z.string().min(1).max(2000) });
const scoreFlag = z.enum(['GREEN', 'YELLOW', 'RED']);
const phone = z.object({ number: z.string().regex(/^\d{6,15}$/), areaCode: z.enum(['52', '51']) });
const smsClient = z.object({ uuid, platform: z.string().max(50) });
/**
 * What the service read from an uploaded proof of address (project addition to the `file` response), to pre-fill
 * the address form. `leido` false: nothing legible (the client asks for another capture).
 */
export const proofReading = z.object({
  leido: z.boolean(),
  nombreCompleto: z.string().optional(),
  calle: z.string().optional(),
  numeroExterior: z.string().optional(),
  numeroInterior: z.string().optional(),
  colonia: z.string().optional(),
  codigoPostal: z.string().optional(),
  delegacion: z.string().optional(),
  estado: z.string().optional(),
  /** YYYY-MM-DD. */
  fechaEmision: z.string().optional(),
  /** The name on the bill is the ID holder's; null when either is unknown. */
  coincideNombre: z.boolean().nullable(),
  /** Issued within MESES_VIGENCIA_COMPROBANTE months; null without a date. */
  vigente: z.boolean().nullable(),
  /** Captures left before the attempt limit (an unreadable proof uses one). */
  intentosRestantes: z.number().int().min(0),
});
export type ProofReadingWire = z.infer<typeof proofReading>;

const imageTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
const videoTypes = ['video/webm', 'video/mp4'] as const;

/**
 * Real-time media server (docs/flow.md §7, channel constants in routes.ts): the client's first message on the data channel
 * and the server's reply to finish_record. Flags arrive as booleans or as 'true'/'false'.
 */
const channelFlag = z.union([z.boolean(), z.enum(['true', 'false'])]);
const realtimeStartMessage = z.object({
  /** The user id; must equal cliente. */
  uuid,
  /** The video token the user reads (VIDEO_TOKEN, VIDEO_TOKEN_PDF); the hologram sends none. */
  token: z.string().max(200).optional(),
  // project: the issued code's created and expire, which identify it as in the recorded upload.
  created: z.string().max(40).optional(),
  expire: z.string().max(40).optional(),
  bucket: z.string().max(200).optional(),
  ios: channelFlag.optional(),
  mobilesafari: channelFlag.optional(),
  isIPad: channelFlag.optional(),
  type: z.enum(realtimeRecordingTypes),
  isMobile: channelFlag.optional(),
  /** The grantor's api key; for VIDEO_TOKEN_PDF the result link's credential (the link flow has no api key). */
  key: z.string().min(1).max(2000),
  transaccion: uuid,
  cliente: uuid,
  service: z.string().max(100).optional(),
  side: z.string().max(20).optional(),
  isPassport: channelFlag.optional(),
  identificacion_pasaporte: channelFlag.optional(),
  // project: the camera (JSON of cameraInfo), as the recorded upload's info_camara.
  info_camara: z.string().max(2000).optional(),
});
/** res carries what the matching HTTP call answers: { status, payload: { match, liveness } } or an error body. */
const realtimeReply = z.object({ status: z.number().int(), res: z.unknown() });
export const realtimeSchemas = { startMessage: realtimeStartMessage, reply: realtimeReply };
export type RealtimeStartMessage = z.infer<typeof realtimeStartMessage>;
export type RealtimeReply = z.infer<typeof realtimeReply>;

export const calls = {
  health: { ...routes.health, summary: 'Liveness: the process answers.', response: z.object({ status: z.literal('ok') }) },
  ready: {
    ...routes.ready,
    summary: 'Readiness: the database and the blob store answer, migrations ran, and no engine failed to start.',
    response: z.object({ status: z.enum(['ready', 'not_ready']), checks: z.record(z.string(), z.boolean()) }),
  },
  grantorParams: {
    ...routes.grantorParams,
    summary: 'Grantor parameters for the api key; creates or resumes the transaction of the headers.',
    headers: trxHeaders,
    query: z.object({ idOtorgante: z.string().max(100).optional() }),
    response: envelope(z.array(grantorParam)),
  },
  publicGrantorParams: {
    ...routes.publicGrantorParams,
    summary: 'Public grantor parameters by grantor id (branding for the result-link flow); no secrets.',
    params: z.object({ idOtorgante: z.string().min(1).max(100) }),
    query: z.object({ idOtorgante: z.string().max(100).optional() }),
    response: envelope(z.array(grantorParam)),
  },
  updateCycle: {
    ...routes.updateCycle,
    summary: 'Lifecycle event of the transaction.',
    headers: trxHeaders,
    body: lifecycleEventBody,
    response: envelope(z.object({ id: z.string() })),
  },
  auditEvent: {
    ...routes.auditEvent,
    summary: 'Audit event (step, type, datum).',
    headers: trxHeaders,
    body: auditEventBody,
    response: envelope(z.object({ id: z.string() })),
  },
  transactionEvents: {
    ...routes.transactionEvents,
    summary: "Server-to-server: the transaction's lifecycle and audit events (decrypted), for the grantor that owns it (Authorization: Bearer <secret server key>).",
    params: z.object({ uuidTrx: uuid }),
    response: envelope(
      z.object({
        transaction: z.object({
          uuidTrx: uuid,
          uuidUser: uuid,
          currentStep: z.string().nullable(),
          attempts: z.record(z.string(), z.number()),
          lockedUntil: z.string().nullable(),
          createdAt: z.string(),
          updatedAt: z.string(),
        }),
        lifecycle: z.array(lifecycleEventBody.extend({ id: z.string(), receivedAt: z.string() })),
        audit: z.array(auditEventBody.omit({ apikey: true }).extend({ id: z.string(), receivedAt: z.string(), ip: z.string().optional(), userAgent: z.string().optional() })),
        /** Evidence recorded for the transaction (uploaded documents...), never its content. */
        evidence: z.array(z.object({ id: z.string(), kind: z.string(), sha256: z.string().nullable(), createdAt: z.string() })).optional(),
      }),
    ),
  },
  renapo: {
    ...routes.renapo,
    summary: 'CURP check (structure, check digit, consistency; external gateway when configured).',
    headers: trxHeaders,
    body: z.object({ uuid, turn: z.literal(-1), curp: z.string().max(19) }),
    response: envelope(z.unknown()),
  },
  ine: {
    ...routes.ine,
    summary: 'INE data check (CIC / OCR / clave de elector formats and MRZ consistency).',
    headers: trxHeaders.extend({ Otorgante: z.string().max(100).optional() }),
    body: z.object({
      uuid,
      turn: z.literal(-1),
      data: z.union([z.object({ ocr: z.string().max(20), claveElector: z.string().max(20), numeroEmisionCredencial: z.string().max(2) }), z.object({ cic: z.string().max(13) })]),
      fingerprint: z.object({ indexLeft: z.null(), indexRight: z.string().max(0) }),
    }),
    response: envelope(z.unknown()),
  },
  ocr: {
    ...routes.ocr,
    summary: 'Reads one side of an ID (multipart).',
    headers: trxHeaders,
    multipart: {
      uuidUser: { kind: 'text', required: true },
      ine: { kind: 'file', required: true, accept: imageTypes },
      side: { kind: 'text', required: true },
      bucket: { kind: 'text', required: false },
      originOS: { kind: 'text', required: false },
      SERVICE_ROTATE_IMAGE: { kind: 'text', required: false },
      // project: the flow's hint that the user is capturing a passport (router state passport).
      passport: { kind: 'text', required: false },
    },
    // ocrBack is present when the side read also carries the MRZ (the passport data page).
    response: envelope(z.object({ ocrData: z.union([ocrFront, ocrBack]), ocrBack: z.record(z.string(), z.string()).optional() })),
  },
  otp: {
    ...routes.otp,
    summary: 'Face photo in, one-time 4-digit code out.',
    headers: trxHeaders,
    multipart: { file: { kind: 'file', required: true, accept: ['image/jpeg', 'image/png'] }, uuid: { kind: 'text', required: true } },
    response: envelope(z.object({ codes })),
  },
  // project: the result-link flow's code (it has no api key): /v1/otp authorised by the link credential.
  linkStatus: {
    ...routes.linkStatus,
    summary: 'Whether the result link of the credential (header X-Consumer-Custom-ID) can still be consulted: 200, or 410 (expired or already consulted) before any camera step.',
    headers: linkHeaders,
    response: envelope(z.object({ state: z.literal('open'), expiresAt: z.string() })),
  },
  publicOtp: {
    ...routes.publicOtp,
    summary: 'Face photo in, one-time code out, for the result-link flow (header X-Consumer-Custom-ID).',
    headers: linkHeaders,
    multipart: { file: { kind: 'file', required: true, accept: ['image/jpeg', 'image/png'] }, uuid: { kind: 'text', required: true } },
    response: envelope(z.object({ codes })),
  },
  videoTokenCode: {
    ...routes.videoTokenCode,
    summary: 'Issues a video-token code without a photo.',
    headers: trxHeaders,
    body: z.object({ uuid }),
    response: envelope(codes),
  },
  videoToken: {
    ...routes.videoToken,
    summary: 'Face video reading the code: face match, liveness and spoken code.',
    headers: trxHeaders,
    multipart: {
      uuidUser: { kind: 'text', required: true },
      created: { kind: 'text', required: true },
      expire: { kind: 'text', required: true },
      originOS: { kind: 'text', required: false },
      service_call: { kind: 'text', required: true },
      identificacion_pasaporte: { kind: 'text', required: false },
      videotoken: { kind: 'file', required: true, accept: videoTypes },
      iOS: { kind: 'text', required: false },
      // project: the camera that recorded the video (JSON of cameraInfo: label and track settings).
      info_camara: { kind: 'text', required: false },
    },
    response: envelope(faceResult),
  },
  publicVideoToken: {
    ...routes.publicVideoToken,
    summary: 'Face video of the result-link flow; on a match payload.documentLink is the one-time download.',
    headers: linkHeaders,
    multipart: {
      uuidUser: { kind: 'text', required: true },
      created: { kind: 'text', required: true },
      expire: { kind: 'text', required: true },
      originOS: { kind: 'text', required: false },
      service_call: { kind: 'text', required: true },
      videotoken: { kind: 'file', required: true, accept: videoTypes },
      // project: as in videoToken.
      info_camara: { kind: 'text', required: false },
    },
    response: envelope(faceResult),
  },
  idCalibrate: {
    ...routes.idCalibrate,
    summary: 'Hologram calibration video of the ID.',
    headers: trxHeaders,
    multipart: { ine: { kind: 'file', required: true, accept: videoTypes }, originOS: { kind: 'text', required: false } },
    response: envelope(z.unknown()),
  },
  tokenSms: {
    ...routes.tokenSms,
    summary: 'Sends a 6-digit SMS code.',
    headers: trxHeaders,
    body: z.object({ client: smsClient, phone }),
    response: z.object({ status: z.number(), error: z.string().optional() }),
  },
  verifySms: {
    ...routes.verifySms,
    summary: 'Verifies the SMS code.',
    headers: trxHeaders,
    body: z.object({ client: smsClient, phone: phone.extend({ token: z.string().regex(/^\d{4,8}$/) }) }),
    response: z.object({ status: z.number(), error: z.string().optional() }),
  },
  queryScore: {
    ...routes.queryScore,
    summary: 'Traffic-light score with the rules that decided it.',
    headers: trxHeaders,
    params: z.object({ uuidUser: uuid, uuidTrx: uuid }),
    query: z.object({ isDesktop: z.enum(['true', 'false']).optional(), generate: z.literal('true').optional() }),
    response: envelope(z.object({ flag: scoreFlag, Fields: z.array(z.object({ rule: z.string(), passed: z.boolean(), detail: z.string() })) })),
  },
  processDocuments: {
    ...routes.processDocuments,
    summary: 'Generates the clause, authorization and report PDFs.',
    headers: trxHeaders,
    body: z.object({ uuidUser: uuid }),
    response: envelope(z.object({ links: z.record(z.string(), z.string()) })),
  },
  file: {
    ...routes.file,
    summary: 'Proof-of-address upload.',
    headers: trxHeaders,
    multipart: {
      bucket: { kind: 'text', required: false },
      folder: { kind: 'text', required: true },
      uuid: { kind: 'text', required: true },
      file: { kind: 'file', required: true, accept: [...imageTypes, 'application/pdf'] },
    },
    response: envelope(z.object({ key: z.string(), sha256: z.string(), size: z.number(), lectura: proofReading })),
  },
  postalCodes: {
    ...routes.postalCodes,
    summary: 'Settlements, municipality and state of a postal code.',
    headers: trxHeaders,
    body: z.object({ address: z.object({ cp: z.string().regex(/^\d{5}$/), street: z.string().max(200).optional() }), uuid }),
    response: envelope(z.object({ address: z.array(z.object({ municipio: z.string(), estado: z.string(), asentamiento: z.string() })) })),
  },
  nom151: {
    ...routes.nom151,
    summary: 'Evidence bundle with a time-stamp token (when SEND_ZIP_SEMAFORO).',
    headers: trxHeaders,
    body: z.object({
      uuidUser: uuid,
      custom_uuid: z.string().max(200),
      ocrBack: ocrBack.optional(),
      ocrFront: ocrFront.optional(),
      data_user: z.array(userDatum).optional(),
      links: z.record(z.string(), z.string()).optional(),
      email: z.email().optional(),
      tipo_envio: z.enum(['COMPLETO', 'SEMAFORO']),
      semaforo: z.enum(['green', 'yellow', 'red']),
    }),
    response: envelope(z.unknown()),
  },
  emailResult: {
    ...routes.emailResult,
    summary: 'Queues the result e-mail to the customer.',
    headers: trxHeaders,
    body: z.object({
      tipo_envio: z.enum(['COMPLETO', 'SEMAFORO']),
      semaforo: z.enum(['green', 'yellow', 'red']),
      uuidUser: uuid,
      name: z.string().max(300),
      email: z.email(),
      fNac: z.string().max(20).optional(),
      curp: z.string().max(19).optional(),
      vigencia: z.string().max(20).optional(),
      ocrFront: ocrFront.optional(),
      ocrBack: ocrBack.optional(),
      data_user: z.array(userDatum).optional(),
      detailsScore: z.unknown().optional(),
      custom_uuid: z.string().max(200),
      originOS: z.string().max(20).optional(),
      coincidencia: z.unknown().optional(),
    }),
    response: envelope(z.object({ jobId: z.string() })),
  },
  enlace: {
    ...routes.enlace,
    summary: 'Downloads the result PDF of a signed, single-consultation link.',
    params: z.object({ token: z.string().min(10).max(4000) }),
    response: z.unknown(),
  },
  launcherIdentity: {
    ...routes.launcherIdentity,
    summary: 'Launcher: api key in, user uuid out.',
    headers: apikeyHeader,
    body: z.object({ uuid: uuid.optional() }),
    response: envelope(z.object({ uuid })),
  },
  launcherAuth: {
    ...routes.launcherAuth,
    summary: 'Launcher: user {uuid, key} in, JWT signed by the server out.',
    body: z.object({ user: z.object({ uuid, key: z.string().min(1).max(200) }) }),
    response: envelope(z.object({ token: z.string() })),
  },
  launcherVerify: {
    ...routes.launcherVerify,
    // project: the popup's jwt is checked by the server when the flow starts in popup mode (docs/decisions.md).
    summary: "Popup mode: verifies the launcher's JWT for this grantor, user and referer origin.",
    headers: trxHeaders,
    body: z.object({ token: z.string().min(10).max(4000), referer: z.string().min(1).max(2000) }),
    response: envelope(z.object({ uuid, origin: z.string(), expiresAt: z.string() })),
  },
  recordConnections: {
    ...routes.recordConnections,
    summary: 'Real-time media server: new peer connection with its offer, for a transaction of a grantor (one live connection each).',
    // project (issue #15): the flow's transaction headers, with its api key or, in the result-link flow, the link
    // credential in X-Consumer-Custom-ID; the start message on the data channel must name the same transaction.
    headers: z.object({
      transaccion: uuid,
      cliente: uuid,
      apikey: z.string().min(1).max(200).optional(),
      'x-consumer-custom-id': z.string().min(1).max(2000).optional(),
    }),
    response: z.object({ id: z.string(), localDescription: z.object({ type: z.string(), sdp: z.string() }) }),
  },
  recordRemoteDescription: {
    ...routes.recordRemoteDescription,
    summary: "Real-time media server: the browser's answer.",
    params: z.object({ id: z.string().min(1).max(100) }),
    body: z.object({ type: z.literal('answer'), sdp: z.string().max(100_000) }),
    response: z.object({ status: z.literal(200) }),
  },
  recordClose: {
    ...routes.recordClose,
    summary: 'Real-time media server: closes a connection.',
    params: z.object({ id: z.string().min(1).max(100) }),
    response: z.object({ status: z.literal(200) }),
  },
} as const satisfies Record<string, CallDefinition>;

export type CallName = keyof typeof calls;
export type CallResponse<N extends CallName> = z.infer<(typeof calls)[N]['response']>;

export const schemas = { lifecycleEventBody, auditEventBody, codes, challengeSchedule, faceResult, scoreFlag, phone };
export type LifecycleEvent = z.infer<typeof lifecycleEventBody>;
export type AuditEvent = z.input<typeof auditEventBody>;
