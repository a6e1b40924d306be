import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage } from '@cantoo/pdf-lib';

/**
 * Small layout helper over @cantoo/pdf-lib: A4 pages, Helvetica (WinAnsi), wrapped paragraphs, key/value rows, tables
 * and images, with automatic page breaks. Text outside WinAnsi is transliterated or replaced, never dropped.
 */
const pageSize: [number, number] = [595.28, 841.89];
const margin = 50;

const replacements: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00A0': ' ',
  '\u2265': '>=',
  '\u2264': '<=',
  '\u2192': '->',
  '\t': ' ',
};

/** Text the standard fonts can encode: Latin-1 printable characters (Spanish letters included). */
export function pdfSafe(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0;
    if (replacements[ch] !== undefined) out += replacements[ch];
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa1 && code <= 0xff)) out += ch;
    else if (ch === '\n') out += '\n';
    else if (code !== 0x0d) out += '?';
  }
  return out;
}

export interface Writer {
  doc: PDFDocument;
  title(text: string): void;
  heading(text: string): void;
  paragraph(text: string, options?: { size?: number; color?: [number, number, number] }): void;
  field(label: string, value: string): void;
  table(headers: string[], rows: string[][], widths: number[]): void;
  images(items: { label: string; image: PDFImage }[]): void;
  space(points: number): void;
  finish(): Promise<Uint8Array>;
}

/** The text's lines within maxWidth at this font and size: words wrapped, a word longer than a line cut. */
function wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of pdfSafe(text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      // A word longer than the line (a hash, a URL) is cut into pieces.
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > maxWidth) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > maxWidth) cut -= 1;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

export async function createWriter(meta: { title: string; subject: string; author: string; createdAt: Date; footer: string }): Promise<Writer> {
  const doc = await PDFDocument.create();
  doc.setTitle(pdfSafe(meta.title));
  doc.setSubject(pdfSafe(meta.subject));
  doc.setAuthor(pdfSafe(meta.author));
  doc.setProducer('kyc-onboarding');
  doc.setCreationDate(meta.createdAt);
  doc.setModificationDate(meta.createdAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const width = pageSize[0] - 2 * margin;
  let page: PDFPage = doc.addPage(pageSize);
  let y = pageSize[1] - margin;

  const newPage = () => {
    page = doc.addPage(pageSize);
    y = pageSize[1] - margin;
  };
  const ensure = (height: number) => {
    if (y - height < margin + 20) newPage();
  };
  const draw = (text: string, x: number, font: PDFFont, size: number, maxWidth: number, color = rgb(0.1, 0.1, 0.12)) => {
    for (const line of wrap(text, font, size, maxWidth)) {
      ensure(size + 4);
      page.drawText(line, { x, y: y - size, size, font, color });
      y -= size + 4;
    }
  };

  return {
    doc,
    title: (text) => {
      draw(text, margin, bold, 18, width, rgb(0.04, 0.31, 0.54));
      y -= 6;
    },
    heading: (text) => {
      y -= 8;
      ensure(40);
      draw(text, margin, bold, 12, width, rgb(0.04, 0.31, 0.54));
      y -= 2;
    },
    paragraph: (text, options = {}) => {
      const [r, g, b] = options.color ?? [0.1, 0.1, 0.12];
      // Each line break of the text ({enter}) starts a paragraph, with a little space before the next.
      for (const part of text.split('\n')) {
        draw(part, margin, regular, options.size ?? 10, width, rgb(r, g, b));
        y -= 4;
      }
    },
    field: (label, value) => {
      const labelWidth = 150;
      const labelLines = wrap(label, bold, 10, labelWidth - 8);
      const lines = wrap(value || '-', regular, 10, width - labelWidth);
      const rows = Math.max(labelLines.length, lines.length);
      ensure(14 * rows);
      labelLines.forEach((line, i) => page.drawText(line, { x: margin, y: y - 10 - 14 * i, size: 10, font: bold, color: rgb(0.25, 0.25, 0.3) }));
      lines.forEach((line, i) => page.drawText(line, { x: margin + labelWidth, y: y - 10 - 14 * i, size: 10, font: regular }));
      y -= 14 * rows;
    },
    table: (headers, rows, widths) => {
      const size = 8;
      const total = widths.reduce((a, b) => a + b, 0);
      const columns = widths.map((w) => (w / total) * width);
      const drawRow = (cells: string[], font: PDFFont) => {
        const wrapped = cells.map((cell, i) => wrap(cell, font, size, (columns[i] ?? 50) - 4));
        const height = Math.max(...wrapped.map((l) => l.length)) * (size + 2) + 4;
        ensure(height);
        let x = margin;
        wrapped.forEach((lines, i) => {
          lines.forEach((line, j) => page.drawText(line, { x: x + 2, y: y - size - j * (size + 2), size, font }));
          x += columns[i] ?? 0;
        });
        y -= height;
        page.drawLine({ start: { x: margin, y: y + 2 }, end: { x: margin + width, y: y + 2 }, thickness: 0.3, color: rgb(0.8, 0.8, 0.85) });
      };
      drawRow(headers, bold);
      for (const row of rows) drawRow(row, regular);
      y -= 6;
    },
    images: (items) => {
      if (items.length === 0) return;
      const gap = 12;
      const slot = (width - gap * (items.length - 1)) / items.length;
      const maxHeight = 170;
      const scaled = items.map(({ image }) => image.scale(Math.min(slot / image.width, maxHeight / image.height)));
      const height = Math.max(...scaled.map((s) => s.height)) + 16;
      ensure(height);
      items.forEach(({ label, image }, i) => {
        const { width: w, height: h } = scaled[i]!;
        const x = margin + i * (slot + gap);
        page.drawImage(image, { x, y: y - h, width: w, height: h });
        page.drawText(pdfSafe(label), { x, y: y - h - 11, size: 8, font: regular, color: rgb(0.3, 0.3, 0.35) });
      });
      y -= height + 6;
    },
    space: (points) => {
      y -= points;
    },
    finish: async () => {
      const pages = doc.getPages();
      pages.forEach((p, i) => {
        p.drawText(pdfSafe(`${meta.footer} - página ${i + 1} de ${pages.length}`), { x: margin, y: margin / 2, size: 7, font: regular, color: rgb(0.45, 0.45, 0.5) });
      });
      return doc.save({ useObjectStreams: true });
    },
  };
}
