/**
 * Examples in /openapi.json: one value per wire name of the headers, path and query parameters and request-body
 * fields an integrator fills in, with a word on where the value comes from, and the shapes of the error body. The
 * values are those the flow itself sends (apps/web), so a value copied from the document is accepted.
 */
import { errorTexts } from '@kyc/contracts';

const transactionId = '0193a5f2-7c4e-7b21-9a3d-5e8f1c2b4d60';
const userId = '0193a5f2-7c4e-7b21-9a3d-5e8f1c2b4d61';
const grantorId = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';
const linkJwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0cngiOiIwMTkzYTVmMiJ9.3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const codeCreated = '2026-11-26T18:00:00.000Z';

interface FieldExample {
  example: unknown;
  description?: string;
}

export const fieldExamples: Record<string, FieldExample> = {
  transaccion: { example: transactionId, description: 'The transaction id (a UUID the integrator or the flow chooses at the journey start).' },
  cliente: { example: userId, description: "The end customer's user id (a UUID), the same for the whole journey." },
  uuidUser: { example: userId, description: "The end customer's user id (the cliente header's value)." },
  uuidTrx: { example: transactionId, description: 'The transaction id (the transaccion header of the journey).' },
  uuid: { example: userId, description: "The end customer's user id (the cliente header's value)." },
  idOtorgante: { example: grantorId, description: "The grantor's id (kyc-grantor create prints it)." },
  Otorgante: { example: grantorId, description: "The grantor's id." },
  'x-consumer-custom-id': { example: linkJwt, description: 'The credential of the /pdf_token URL of the result link sent by e-mail (a signed JWT).' },
  token: { example: linkJwt, description: "The signed one-time token of the link's URL." },
  id: { example: '0193a5f3-0a11-7c22-8d33-4e445f667788', description: 'The connection id returned by POST /record/connections.' },
  isDesktop: { example: 'false' },
  generate: { example: 'true' },
  side: { example: 'front', description: "The side shown: 'front' or 'back' (a passport's data page is its 'front')." },
  bucket: { example: 'identificaciones', description: "Kept for the spec's clients: 'identificaciones' for an ID, 'comprobantes' for a proof of address." },
  folder: { example: `${grantorId}/${userId}/domicilio`, description: "'<grantor id>/<user id>/domicilio': the proof of address of this customer." },
  originOS: { example: 'android', description: "The device that captured: 'ios', 'android' or 'desktop'." },
  SERVICE_ROTATE_IMAGE: { example: 'true', description: "'true' lets the server straighten a card photographed sideways or upside down." },
  passport: { example: 'false', description: "'true' when the person said the document is a passport." },
  created: { example: codeCreated, description: 'The `created` of the code POST /v1/otp (or /v1/videotoken/code) returned, unchanged.' },
  expire: { example: '2026-11-26T18:03:00.000Z', description: 'The `expire` of the same code, unchanged.' },
  service_call: { example: 'videotoken-embedding', description: "'videotoken-embedding' in the main flow, 'videotoken-pdf' in the result-link flow." },
  identificacion_pasaporte: { example: 'false', description: "'true' when the ID captured was a passport." },
  iOS: { example: 'false', description: "'true' when recorded on an iPhone or iPad." },
  // JSON bodies.
  trx_id: { example: transactionId, description: 'The transaction id (the transaccion header).' },
  client_id: { example: userId, description: 'The user id (the cliente header).' },
  company_id: { example: grantorId, description: "The grantor's id." },
  uuid_trx: { example: transactionId, description: 'The transaction id (the transaccion header).' },
  uuid_clt: { example: userId, description: 'The user id (the cliente header).' },
  uuid_oto: { example: grantorId, description: "The grantor's id." },
  apikey: { example: 'demo', description: "The grantor's publishable api key (the embedded demo grantor's is 'demo')." },
  step: { example: 'identificacion', description: 'The step of the journey (a route name of docs/flow.md §2).' },
  paso: { example: 'identificacion', description: 'The step of the journey (a route name of docs/flow.md §2).' },
  event: { example: '{"status":"OK","step":"identificacion","description":"ID captured"}', description: 'The lifecycle event as a JSON string.' },
  tipo: { example: 'Error', description: "'Error', 'Exception' or another kind of audit record." },
  dato: { example: 'The camera could not be opened', description: 'What happened, without personal data.' },
  finished: { example: false },
  time_stamp: { example: codeCreated, description: 'When it happened (ISO 8601).' },
  origin: { example: 'celd' },
  nombreOtorgante: { example: 'Financiera Ejemplo' },
  nombreCompleto: { example: 'MARÍA GUADALUPE HERNÁNDEZ LÓPEZ' },
  name: { example: 'MARÍA GUADALUPE HERNÁNDEZ LÓPEZ', description: "The customer's full name, as confirmed." },
  telefono: { example: '5512345678' },
  correoElectronico: { example: 'maria.hernandez@example.com' },
  email: { example: 'maria.hernandez@example.com', description: 'The address the customer confirmed.' },
  bandera: { example: 'GREEN' },
  referer: { example: 'https://tienda.example', description: "The partner page's origin the launcher opened the flow from." },
  tipo_envio: { example: 'COMPLETO', description: "'COMPLETO' (the documents and the result) or 'SEMAFORO' (the traffic light only)." },
  semaforo: { example: 'green' },
  curp: { example: 'HELM900101MDFRPR09', description: 'The CURP as confirmed by the person.' },
  fNac: { example: '01/01/1990', description: 'Birth date as confirmed (DD/MM/YYYY).' },
  vigencia: { example: '2031', description: 'The year the ID is valid until.' },
  custom_uuid: { example: 'pedido-48213', description: "The grantor's own reference of this customer (the launcher's uuid option), or empty." },
  turn: { example: -1 },
  type: { example: 'answer' },
  sdp: { example: 'v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n', description: "The browser's SDP answer to the connection's offer." },
  ocrFront: {
    example: { nombreCompleto: 'MARÍA GUADALUPE HERNÁNDEZ LÓPEZ', curp: 'HELM900101MDFRPR09', fechaNacimiento: '01/01/1990' },
    description: 'The front as POST /v2/ocr read it (its ocrData), with the corrections the person made.',
  },
  ocrBack: { example: { ocr: '1234567890123', cic: '123456789' }, description: 'The back as POST /v2/ocr read it.' },
  data_user: {
    example: [
      { description: 'correoElectronico', value: 'maria.hernandez@example.com' },
      { description: 'calle', value: 'AV. REFORMA 222', typed: true },
    ],
    description: 'What the person confirmed or typed, one entry per datum.',
  },
  links: { example: { clausula: 'documents/clausula.pdf' }, description: 'The documents of POST /v1/proccessdocuments (its links).' },
  detailsScore: { example: { flag: 'GREEN' }, description: 'The score of GET /v1/query_score, as the flow received it.' },
  coincidencia: { example: 0.91, description: 'The face match score of the face video.' },
  data: {
    example: { ocr: '1234567890123', claveElector: 'HRLPMR90010109M800', numeroEmisionCredencial: '01' },
    description: "The INE's OCR, elector key and emission number (models E/F), or its CIC.",
  },
  fingerprint: { example: { indexLeft: null, indexRight: '' } },
  info_camara: { example: '{"label":"camera2 1, facing front","width":1280,"height":720,"frameRate":30}', description: 'The camera that recorded (JSON: its label and track settings).' },
};

const codes = { code: '4821', created: codeCreated, expire: '2026-11-26T18:03:00.000Z', schedule: { digitsMs: [1800, 2900, 4100, 5200], stopMs: 8200 } };

/** The 200 answer of the calls an integrator most often reads, by operationId. */
export const responseExamples: Record<string, unknown> = {
  health: { status: 'ok' },
  otp: { status: 200, payload: { codes } },
  publicOtp: { status: 200, payload: { codes } },
  videoTokenCode: { status: 200, payload: codes },
  videoToken: { status: 200, payload: { match: true, liveness: true } },
  queryScore: {
    status: 200,
    payload: {
      flag: 'GREEN',
      Fields: [
        { rule: 'identificacion_frente', passed: true, detail: 'Frente leído (INE) con los datos completos.' },
        { rule: 'rostro_coincidencia', passed: true, detail: 'El rostro del video coincide con la identificación (similitud 0.912, mínimo 0.825).' },
        { rule: 'prueba_de_vida', passed: true, detail: 'Prueba de vida superada.' },
      ],
    },
  },
};

export const errorExamples = [
  { status: 401, message: 'Invalid api key', message_client: errorTexts.badUrl },
  { status: 404, message: 'Transaction not found' },
] as const;

/** Members of the JSON bodies' objects, composed into the object's example (a phone with or without its code). */
const memberExamples: Record<string, unknown> = {
  uuid: userId,
  platform: 'android',
  key: 'demo',
  number: '5512345678',
  areaCode: '52',
  token: '123456',
  cp: '06600',
  street: 'AV. REFORMA 222',
};

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; examples?: unknown[]; description?: string };

/** An object's example from its members' when every member has one. */
function composedExample(property: Schema): FieldExample | undefined {
  if (!property.properties) return undefined;
  const members = Object.keys(property.properties);
  if (!members.every((member) => member in memberExamples)) return undefined;
  return { example: Object.fromEntries(members.map((member) => [member, memberExamples[member]])) };
}

/** The property with its example (and description, unless it has one) when its name has an example. */
function withExample(name: string, property: Schema): Schema {
  const known = composedExample(property) ?? fieldExamples[name];
  if (!known || property.examples || property.example !== undefined || property.format === 'binary') return property;
  return { ...property, examples: [known.example], ...(known.description && !property.description ? { description: known.description } : {}) };
}

/** The route's response schemas, the 200 one with its example when the operation has one. */
export function addResponseExample(operationId: string, response: unknown): unknown {
  const example = responseExamples[operationId];
  const byStatus = response as Record<string, Schema> | undefined;
  const ok = byStatus?.['200'];
  if (example === undefined || !ok || ok.examples) return response;
  return { ...byStatus, 200: { ...ok, examples: [example] } };
}

/** A route's JSON schema of headers, params, querystring or body, its named properties with their examples. */
export function addExamples(schema: unknown): unknown {
  const object = schema as Schema | undefined;
  if (!object?.properties) return schema;
  return { ...object, properties: Object.fromEntries(Object.entries(object.properties).map(([name, property]) => [name, withExample(name, property)])) };
}
