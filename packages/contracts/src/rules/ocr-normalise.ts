import { fullYearFromTwoDigits } from './dates.js';
import { limits } from './limits.js';

/**
 * Spec §5 OCR birth date: keep digits and slashes; shorter than 6 is emptied; 7 to 9 characters
 * (DD/MM/YY, D/M/YY, DDMMYYYY...) become DD/MM/YYYY with the century inferred from the last two
 * digits, unless a 4-digit 19xx/20xx year was read, which is kept; any other length is returned
 * cleaned but not reshaped (the field validator then flags it).
 */
export function normaliseOcrBirthDate(raw: string, today: Date = new Date()): string {
  const cleaned = raw.replace(/[^\d/]/g, '');
  if (cleaned.length < 6) return '';
  if (cleaned.length < 7 || cleaned.length > 9) return cleaned;
  const parts = cleaned.split('/');
  const digits = parts.join('');
  const [day = '', month = '', yearText = ''] = parts.length === 3 ? parts : [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)];
  const year = /^(19|20)\d{2}$/.test(yearText) ? yearText : String(fullYearFromTwoDigits(Number(yearText.slice(-2)), today));
  return `${day.padStart(2, '0')}/${month.padStart(2, '0')}/${year}`;
}

/** Spec §5: the OCR CURP is used only when longer than 14 characters. */
export function ocrCurpOrEmpty(raw: string): string {
  const value = raw.trim();
  return value.length >= limits.ocrCurpMinLength ? value : '';
}

/** Spec §5: the OCR validity year is '20' plus the last two digits. */
export function ocrValidityYear(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  return digits.length < 2 ? '' : `20${digits.slice(-2)}`;
}
