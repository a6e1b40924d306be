import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/** A photo-like image (busy pixels, so encoders produce realistic sizes) in the given format. */
export async function imageSample(format: 'png' | 'jpeg' | 'webp' | 'avif', width = 640, height = 480): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 7919 + (i >> 5) * 31) % 256;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    [format]()
    .toBuffer();
}

/** A one-page PDF written by hand, with a correct cross-reference table. */
export function pdfSample(text = 'Comprobante de domicilio'): Buffer {
  const content = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const videoArgs = {
  webm: ['-c:v', 'libvpx', '-b:v', '200k', '-f', 'webm'],
  mp4: ['-c:v', 'mpeg4', '-f', 'mp4'],
  mov: ['-c:v', 'mpeg4', '-f', 'mov'],
  mkv: ['-c:v', 'mpeg4', '-f', 'matroska'],
} as const;

/** One-second test-pattern videos made by ffmpeg (installed on CI), by container. */
export function videoSamples(): Record<keyof typeof videoArgs, Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'kyc-video-'));
  try {
    const make = (kind: keyof typeof videoArgs) => {
      const file = path.join(dir, `sample.${kind}`);
      execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=64x64:rate=5', ...videoArgs[kind], '-y', file]);
      return readFileSync(file);
    };
    return { webm: make('webm'), mp4: make('mp4'), mov: make('mov'), mkv: make('mkv') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export type FormPart = { name: string; value: string } | { name: string; filename: string; contentType: string; data: Buffer };

/** A multipart/form-data body written by hand, as a browser would send it. */
export function multipartBody(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----kycTestBoundary${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` + `Content-Type: ${part.contentType}\r\n\r\n`),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
