import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFRawStream, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import yauzl from 'yauzl';

/** The text drawn on every page (pdf-lib writes WinAnsi hex strings: `<...> Tj`), lines joined by spaces. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const lines: string[] = [];
  const streamBytes = (object: PDFObject | undefined): Buffer[] => {
    if (object instanceof PDFRef) return streamBytes(doc.context.lookup(object));
    if (object instanceof PDFArray) return object.asArray().flatMap((o) => streamBytes(o));
    if (object instanceof PDFRawStream) {
      const raw = Buffer.from(object.contents);
      const filter = object.dict.toString().includes('FlateDecode');
      return [filter ? inflateSync(raw) : raw];
    }
    return [];
  };
  for (const page of doc.getPages()) {
    for (const content of streamBytes(page.node.Contents())) {
      for (const match of content.toString('latin1').matchAll(/<([0-9A-Fa-f]*)> Tj/g)) {
        lines.push(Buffer.from(match[1] ?? '', 'hex').toString('latin1'));
      }
    }
  }
  return lines.join(' ').replace(/\s+/g, ' ');
}

/** The attachments of a MIME message written by nodemailer (base64 parts with a filename). */
export function emlAttachments(eml: string): { filename: string; contentType: string; content: Buffer }[] {
  const boundaries = [...eml.matchAll(/boundary="?([^";\r\n]+)"?/g)].map((m) => m[1]!);
  const parts = boundaries.flatMap((b) => eml.split(`--${b}`));
  const found: { filename: string; contentType: string; content: Buffer }[] = [];
  for (const part of parts) {
    const split = part.indexOf('\n\n');
    if (split < 0) continue;
    const head = part.slice(0, split).replace(/\n[ \t]+/g, ' ');
    const filename = /filename="?([^";\n]+)"?/i.exec(head)?.[1];
    if (!filename || !/content-transfer-encoding: base64/i.test(head)) continue;
    const contentType = /content-type:\s*([^;\n]+)/i.exec(head)?.[1]?.trim() ?? '';
    found.push({ filename, contentType, content: Buffer.from(part.slice(split + 2).replace(/\s+/g, ''), 'base64') });
  }
  return found;
}

/** Every entry of a zip, read with yauzl. */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000, stepMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
