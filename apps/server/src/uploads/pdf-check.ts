import { ContentRejectedError } from './content-error.js';

const header = /^%PDF-[12]\.\d/;
const tailBytes = 1024;

/**
 * A PDF starts with its version header and ends with an end-of-file marker (trailing whitespace allowed);
 * an upload cut short loses the marker, so it is refused instead of being stored unreadable.
 */
export function checkPdf(buffer: Buffer): void {
  const start = buffer.toString('latin1', 0, 16);
  const tail = buffer.toString('latin1', Math.max(0, buffer.length - tailBytes));
  if (!header.test(start) || !tail.includes('%%EOF')) {
    throw new ContentRejectedError('corrupt', 'The PDF is damaged or incomplete');
  }
}
