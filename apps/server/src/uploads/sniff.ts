/**
 * File types recognised from their first bytes (magic numbers). The client's mimetype and file name are never
 * consulted: what a file is decides how it is checked and whether it is accepted.
 */
export type SniffedType =
  | 'image/png'
  | 'image/jpeg'
  | 'image/webp'
  | 'image/heic'
  | 'image/avif'
  | 'application/pdf'
  | 'video/webm'
  | 'video/x-matroska'
  | 'video/mp4'
  | 'video/quicktime'
  | 'audio/mp4';

const ascii = (buffer: Buffer, start: number, end: number) => buffer.toString('latin1', start, end);

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ebmlSignature = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
const ebmlDocTypeId = 0x4282;

// ISO base-media brands (ftyp box). Major brands that are images or audio are told apart from video.
const avifBrands = new Set(['avif', 'avis']);
const heicBrands = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
const audioBrands = new Set(['M4A ', 'M4B ', 'M4P ']);
const mp4Brands = new Set(['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9', 'mp41', 'mp42', 'mp71', 'avc1', 'dash', 'M4V ', 'M4VH', 'M4VP', 'f4v ', 'mmp4', 'MSNV']);

/** An EBML variable-length integer at `offset`: its byte length and value (marker bit kept for ids). */
function readVint(buffer: Buffer, offset: number, keepMarker: boolean): { length: number; value: number } | undefined {
  const first = buffer[offset];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (offset + length > buffer.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i += 1) value = value * 256 + (buffer[offset + i] ?? 0);
  return { length, value };
}

/** The DocType of an EBML header ('webm', 'matroska'), read from the header's child elements. */
function ebmlDocType(buffer: Buffer): string | undefined {
  const headerSize = readVint(buffer, ebmlSignature.length, false);
  if (!headerSize) return undefined;
  let offset = ebmlSignature.length + headerSize.length;
  const end = Math.min(buffer.length, offset + Math.min(headerSize.value, 4096));
  while (offset < end) {
    const id = readVint(buffer, offset, true);
    if (!id || id.length > 4) return undefined;
    const size = readVint(buffer, offset + id.length, false);
    if (!size) return undefined;
    const dataStart = offset + id.length + size.length;
    if (id.value === ebmlDocTypeId) return ascii(buffer, dataStart, Math.min(end, dataStart + size.value)).replace(/\0+$/, '');
    offset = dataStart + size.value;
  }
  return undefined;
}

function isoMediaType(buffer: Buffer): SniffedType | undefined {
  const boxSize = buffer.readUInt32BE(0);
  if (boxSize < 16 || boxSize > 4096) return undefined;
  const major = ascii(buffer, 8, 12);
  if (major === 'qt  ') return 'video/quicktime';
  if (avifBrands.has(major)) return 'image/avif';
  if (heicBrands.has(major)) return 'image/heic';
  if (audioBrands.has(major)) return 'audio/mp4';
  const brands = [major];
  for (let offset = 16; offset + 4 <= Math.min(boxSize, buffer.length); offset += 4) brands.push(ascii(buffer, offset, offset + 4));
  return brands.some((brand) => mp4Brands.has(brand)) ? 'video/mp4' : undefined;
}

export function sniffType(buffer: Buffer): SniffedType | undefined {
  if (buffer.length >= 8 && buffer.subarray(0, 8).equals(pngSignature)) return 'image/png';
  if (buffer.length >= 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) return 'image/jpeg';
  if (buffer.length >= 12 && ascii(buffer, 0, 4) === 'RIFF' && ascii(buffer, 8, 12) === 'WEBP') return 'image/webp';
  if (buffer.length >= 5 && ascii(buffer, 0, 5) === '%PDF-') return 'application/pdf';
  if (buffer.length >= 8 && buffer.subarray(0, 4).equals(ebmlSignature)) {
    const docType = ebmlDocType(buffer);
    if (docType === 'webm') return 'video/webm';
    if (docType === 'matroska') return 'video/x-matroska';
    return undefined;
  }
  if (buffer.length >= 16 && ascii(buffer, 4, 8) === 'ftyp') return isoMediaType(buffer);
  return undefined;
}

/**
 * Whether a sniffed type is one a contract accepts. QuickTime ('qt  ' brand, what older iPhones record) is the
 * same ISO base-media family as MP4 and the same decoders read it, so it is accepted wherever MP4 is.
 */
export function isAccepted(type: SniffedType | undefined, accept: readonly string[]): type is SniffedType {
  if (type === undefined) return false;
  return accept.includes(type) || (type === 'video/quicktime' && accept.includes('video/mp4'));
}

const typeNames: Record<SniffedType, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/heic': 'HEIC',
  'image/avif': 'AVIF',
  'application/pdf': 'PDF',
  'video/webm': 'WebM',
  'video/x-matroska': 'Matroska',
  'video/mp4': 'MP4',
  'video/quicktime': 'QuickTime',
  'audio/mp4': 'MP4 audio',
};

const extensions: Record<SniffedType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/avif': 'avif',
  'application/pdf': 'pdf',
  'video/webm': 'webm',
  'video/x-matroska': 'mkv',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'audio/mp4': 'm4a',
};

/** A short name for messages ('PNG'); unknown types read 'unrecognised'. */
export function typeName(type: string | undefined): string {
  return type !== undefined && type in typeNames ? typeNames[type as SniffedType] : 'unrecognised';
}

export function extensionOf(type: SniffedType): string {
  return extensions[type];
}

export function isImageType(type: SniffedType): type is 'image/png' | 'image/jpeg' | 'image/webp' {
  return type === 'image/png' || type === 'image/jpeg' || type === 'image/webp';
}
