/** Delimiters a catalogue may use: the official '|', and what spreadsheets export. */
export const candidateDelimiters = ['|', ',', ';', '\t'] as const;
export type Delimiter = (typeof candidateDelimiters)[number];

/** The candidate that occurs most often in the header line, or undefined when none does. */
export function detectDelimiter(headerLine: string): Delimiter | undefined {
  let best: Delimiter | undefined;
  let bestCount = 0;
  for (const delimiter of candidateDelimiters) {
    const count = headerLine.split(delimiter).length - 1;
    if (count > bestCount) {
      best = delimiter;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Splits one delimited record (RFC 4180 quoting: a field whose first non-blank character is a double quote is
 * quoted, and "" inside it is a literal quote; quotes elsewhere are literal). Returns undefined when a quoted
 * field is still open at the end of the text, i.e. the record continues on the next line.
 */
export function splitFields(text: string, delimiter: string): string[] | undefined {
  if (!text.includes('"')) return text.split(delimiter);
  const fields: string[] = [];
  let position = 0;
  for (;;) {
    let quoteAt = position;
    while (text[quoteAt] === ' ') quoteAt += 1;
    if (text[quoteAt] === '"') {
      let value = '';
      position = quoteAt + 1;
      for (;;) {
        const closing = text.indexOf('"', position);
        if (closing === -1) return undefined;
        value += text.slice(position, closing);
        position = closing + 1;
        if (text[position] !== '"') break;
        value += '"';
        position += 1;
      }
      // Anything between the closing quote and the delimiter is kept, as spreadsheets do.
      const end = text.indexOf(delimiter, position);
      fields.push(value + text.slice(position, end === -1 ? text.length : end));
      if (end === -1) return fields;
      position = end + delimiter.length;
    } else {
      const end = text.indexOf(delimiter, position);
      if (end === -1) {
        fields.push(text.slice(position));
        return fields;
      }
      fields.push(text.slice(position, end));
      position = end + delimiter.length;
    }
  }
}
