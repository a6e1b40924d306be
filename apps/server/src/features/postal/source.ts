import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { pipeline, Readable, Transform } from 'node:stream';
import { TextDecoder } from 'node:util';
import { createGunzip } from 'node:zlib';
import { PostalImportError } from './errors.js';

/** The official download is Latin-1; WHATWG's windows-1252 is its superset (it also maps 0x80-0x9F). */
export type CatalogueEncoding = 'utf-8' | 'windows-1252';

export interface CatalogueSource {
  /** Decoded lines without their line break (LF, CRLF or CR), in file order. */
  lines: AsyncIterable<string>;
  gzipped: boolean;
  /** Known once the first line has been read. */
  encoding(): CatalogueEncoding | undefined;
  /** Hex SHA-256 of the file's bytes as stored (compressed when gzipped); complete once `lines` is exhausted. */
  sha256(): string;
  /** Releases the file when reading stops early. */
  close(): void;
}

const encodingSniffBytes = 64 * 1024;

type Container = 'gzip' | 'zip' | 'plain';

async function sniffContainer(filePath: string): Promise<Container> {
  const handle = await open(filePath, 'r');
  try {
    const magic = Buffer.alloc(4);
    const { bytesRead } = await handle.read(magic, 0, 4, 0);
    if (bytesRead >= 2 && magic[0] === 0x1f && magic[1] === 0x8b) return 'gzip';
    if (bytesRead === 4 && magic.readUInt32BE(0) === 0x504b0304) return 'zip';
    return 'plain';
  } finally {
    await handle.close();
  }
}

/** UTF-8 when the sample decodes strictly (an incomplete sequence at its end is fine), else Latin-1. */
export function sniffEncoding(sample: Uint8Array, complete: boolean): CatalogueEncoding {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: !complete });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

function hashingTap(hash: Hash): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
}

async function* decodeText(bytes: AsyncIterable<Buffer>, onEncoding: (encoding: CatalogueEncoding) => void): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let head: Buffer[] = [];
  let headLength = 0;
  const start = (complete: boolean): string => {
    const sample = Buffer.concat(head, headLength);
    head = [];
    const encoding = sniffEncoding(sample, complete);
    onEncoding(encoding);
    decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8' });
    return decoder.decode(sample, { stream: !complete });
  };
  try {
    for await (const chunk of bytes) {
      if (decoder) {
        yield decoder.decode(chunk, { stream: true });
        continue;
      }
      head.push(chunk);
      headLength += chunk.length;
      if (headLength >= encodingSniffBytes) yield start(false);
    }
    if (decoder) yield decoder.decode();
    else yield start(true);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      throw new PostalImportError('El archivo empieza en UTF-8 pero más adelante tiene bytes que no son UTF-8: ' + 'guárdelo completo en UTF-8 o en Latin-1.', {}, { cause: error });
    }
    throw error;
  }
}

/**
 * Opens a catalogue file as decoded lines: gunzips when the file starts with the gzip magic bytes, and decodes
 * UTF-8 when the first 64 KiB are strictly valid UTF-8, Latin-1 otherwise (the official download is Latin-1 and
 * its accented notice line is never valid UTF-8). A ZIP (the official download before extraction, or an .xlsx)
 * is refused with PostalImportError.
 */
export async function openCatalogue(filePath: string): Promise<CatalogueSource> {
  const container = await sniffContainer(filePath);
  if (container === 'zip') {
    throw new PostalImportError('El archivo es un ZIP (la descarga de Correos de México o un libro de Excel): ' + 'extraiga CPdescarga.txt e impórtelo.');
  }
  const gzipped = container === 'gzip';
  const hash = createHash('sha256');
  let digest: string | undefined;
  let encoding: CatalogueEncoding | undefined;
  const ignore = () => {};
  const raw = createReadStream(filePath);
  const bytes: Readable = gzipped ? pipeline(raw, hashingTap(hash), createGunzip(), ignore) : pipeline(raw, hashingTap(hash), ignore);
  const text = Readable.from(decodeText(bytes, (detected) => (encoding = detected)));
  const lines = createInterface({ input: text, crlfDelay: Infinity });
  return {
    lines,
    gzipped,
    encoding: () => encoding,
    sha256: () => (digest ??= hash.digest('hex')),
    close: () => {
      lines.close();
      raw.destroy();
    },
  };
}
