import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/** A small seeded PRNG (mulberry32): the same seed gives the same malformed inputs, so a failure reproduces. */
export interface Rng {
  next(): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  string(length: number): string;
}

export function seededRng(seed: number, label = ''): Rng {
  let state = (seed ^ createHash('sha256').update(label).digest().readUInt32LE(0)) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (maxExclusive: number) => Math.floor(next() * maxExclusive);
  const alphabet = 'abcXYZ019 -_.,;:\'"<>/\\%&{}[]ñÑáé€😀\u202e\u0007';
  const chars = [...alphabet];
  return {
    next,
    int,
    pick: (items) => items[int(items.length)] as (typeof items)[number],
    string: (length) => Array.from({ length }, () => chars[int(chars.length)]).join(''),
  };
}

/** The JSON schema subset /openapi.json uses for request bodies. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  anyOf?: Schema[];
  additionalProperties?: boolean | Schema;
}

export interface SampleIds {
  transaccion: string;
  cliente: string;
  grantorId: string;
  apikey: string;
}

const knownPatterns: Record<string, string> = {
  '^\\d{5}$': '06700',
  '^\\d{6,15}$': '5512345678',
  '^\\d{4,8}$': '123456',
};

/** A plausible valid value for `schema` (the starting point each malformed variant breaks in one place). */
export function sampleOf(schema: Schema, ids: SampleIds, name = ''): unknown {
  if (schema.anyOf?.length) return sampleOf(schema.anyOf[0] as Schema, ids, name);
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) out[key] = sampleOf(child, ids, key);
      return out;
    }
    case 'array':
      return schema.items ? [sampleOf(schema.items, ids, name)] : [];
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      break;
  }
  if (schema.format === 'uuid') return /trx/i.test(name) ? ids.transaccion : ids.cliente;
  if (schema.format === 'email') return 'persona@example.com';
  if (schema.pattern && knownPatterns[schema.pattern]) return knownPatterns[schema.pattern];
  if (/company|oto/i.test(name)) return ids.grantorId;
  if (name === 'apikey') return ids.apikey;
  if (schema.maxLength === 0) return '';
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

/** A value of another JSON type than the schema's. */
export function wrongTypeFor(schema: Schema, rng: Rng): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const candidates: unknown[] = [123456789, -1.5e308, true, null, [], ['x'], { nested: { deeper: 1 } }, 'texto'];
  return rng.pick(
    candidates.filter((value) => {
      if (type === 'string') return typeof value !== 'string';
      if (type === 'number' || type === 'integer') return typeof value !== 'number';
      if (type === 'boolean') return typeof value !== 'boolean';
      if (type === 'object') return value === null || typeof value !== 'object' || Array.isArray(value);
      if (type === 'array') return !Array.isArray(value);
      if (type === 'null') return value !== null;
      return schema.enum ? !schema.enum.includes(value) : typeof value !== 'string';
    }),
  );
}

/** Whether any string value breaks the schema (an enum, a pattern, a format or a length). */
export function isConstrainedString(schema: Schema): boolean {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  return (type === 'string' || schema.enum !== undefined) && (schema.enum !== undefined || !!schema.pattern || !!schema.format || schema.maxLength !== undefined);
}

/** A string that breaks a constrained string schema: longer than its maximum, or not its pattern/format. */
export function oversizedString(schema: Schema, rng: Rng): string {
  const length = Math.max((schema.maxLength ?? 0) + 1, 300_000);
  return rng.string(64) + 'Ñ'.repeat(length);
}

// ---- uploads -------------------------------------------------------------------------------------------------

const jpegHeader = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);

function zipWithOneEntry(): Buffer {
  const name = Buffer.from('index.html');
  const data = Buffer.from('<script>alert(1)</script>');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A well-formed PNG header declaring `width` x `height` pixels, with one tiny compressed row of data. */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(Buffer.alloc(64))), pngChunk('IEND', Buffer.alloc(0))]);
}

/** Files that claim to be images (a JPEG header first) and are something else, and images that lie about size. */
export function polyglots(pdf: Buffer): Record<string, { data: Buffer; contentType: string; filename: string }> {
  return {
    'JPEG header + HTML': { data: Buffer.concat([jpegHeader, Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')]), contentType: 'image/jpeg', filename: 'foto.jpg' },
    'JPEG header + ZIP': { data: Buffer.concat([jpegHeader, zipWithOneEntry()]), contentType: 'image/jpeg', filename: 'foto.jpg' },
    'JPEG header + PDF': { data: Buffer.concat([jpegHeader, pdf]), contentType: 'application/pdf', filename: 'comprobante.pdf' },
    'PNG declaring 100000x100000 pixels': { data: pngDeclaring(100_000, 100_000), contentType: 'image/png', filename: 'foto.png' },
    'PNG declaring 2^31-1 x 1 pixels': { data: pngDeclaring(0x7fffffff, 1), contentType: 'image/png', filename: 'foto.png' },
    'WebM magic + garbage': { data: Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]), Buffer.alloc(4096, 0xee)]), contentType: 'video/webm', filename: 'video.webm' },
  };
}

/** An invalid UTF-8 byte sequence (a lone continuation byte, an overlong encoding, a surrogate half, 0xFF). */
export const invalidUtf8 = Buffer.from([0x80, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff, 0xfe]);
