/**
 * Forma Migratoria Múltiple: a typed form in numbered boxes; sex is a ticked check box (read from the
 * pixels, not by OCR). Its validity is the last authorised day: entry date + authorised days - 1.
 */
import { formatDate, normaliseOcrBirthDate, type DateParts } from '@kyc/contracts/rules';
import type { RawImage } from '../homography.js';
import { cleanCode } from '../id-codes.js';
import { bestReading, CODE_CHARS, DIGITS, documentFlags, line, px, readings, short, type DocumentReader, type ParsedSide } from './spec.js';
import { asDigits, cleanName, dateText, findDate, findDigits, nameFields, readText, readWords } from './text.js';

const H = 1294;
/** A visitor's FMM authorises at most 180 days. */
const MAX_AUTHORISED_DAYS = 180;
const CHECK_BOXES = { H: px(H, 735, 459, 769, 495), M: px(H, 905, 459, 939, 495) };

function meanGrey(card: RawImage, region: { x0: number; y0: number; x1: number; y1: number }): number {
  const x0 = Math.round(region.x0 * card.width);
  const x1 = Math.round(region.x1 * card.width);
  const y0 = Math.round(region.y0 * card.height);
  const y1 = Math.round(region.y1 * card.height);
  let sum = 0;
  let count = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      sum += card.data[y * card.width + x]!;
      count++;
    }
  }
  return count > 0 ? sum / count : 255;
}

/** The ticked box: clearly darker than the other one. */
export function tickedSex(card: RawImage): 'H' | 'M' | '' {
  const h = meanGrey(card, CHECK_BOXES.H);
  const m = meanGrey(card, CHECK_BOXES.M);
  if (Math.abs(h - m) < 12) return '';
  return h < m ? 'H' : 'M';
}

export function lastAuthorisedDay(entry: DateParts, days: number): string {
  const last = new Date(Date.UTC(entry.year, entry.month - 1, entry.day + days - 1));
  return formatDate({ day: last.getUTCDate(), month: last.getUTCMonth() + 1, year: last.getUTCFullYear() });
}

export const fmm: DocumentReader = {
  documentType: 'FMM',
  side: 'front',
  fields: [
    line('apellidoPaterno', px(H, 70, 327, 694, 395)),
    line('apellidoMaterno', px(H, 709, 327, 1314, 395), { retryOn: [] }),
    line('nombres', px(H, 1329, 327, 1935, 395)),
    line('nacionalidad', px(H, 70, 445, 694, 513), { retryOn: [] }),
    line('fechaNacimiento', px(H, 1123, 445, 1935, 513), { whitelist: `${DIGITS}/` }),
    line('pasaporte', px(H, 70, 563, 694, 631), { whitelist: CODE_CHARS, retryOn: [] }),
    line('paisResidencia', px(H, 709, 563, 1314, 631), { retryOn: [] }),
    line('fechaEntrada', px(H, 70, 681, 694, 749), { whitelist: `${DIGITS}/`, retryOn: ['fmm_validity_unreadable'] }),
    short('dias', px(H, 709, 681, 995, 749), DIGITS, { retryOn: ['fmm_validity_unreadable'] }),
    line('folio', px(H, 1640, 126, 1935, 186), { whitelist: DIGITS, retryOn: [] }),
  ],
  parse(input): ParsedSide {
    const { reads, card, today } = input;
    const warnings: string[] = [];
    const name = (key: string, required: boolean): string => {
      const found = cleanName(readWords(bestReading(input, key)));
      if (!found && required) warnings.push(`${key}_unreadable`);
      return found ?? '';
    };
    const apellidoPaterno = name('apellidoPaterno', true);
    const apellidoMaterno = name('apellidoMaterno', false);
    const nombres = name('nombres', true);
    const birth = dateText(
      readings(input, 'fechaNacimiento')
        .map((r) => findDate(readText(r)))
        .find(Boolean) ?? null,
    );
    if (!birth) warnings.push('fechaNacimiento_unreadable');
    const entry =
      readings(input, 'fechaEntrada')
        .map((r) => findDate(readText(r)))
        .find(Boolean) ?? null;
    const days =
      readings(input, 'dias')
        .map((r) => Number(asDigits(readText(r)).replace(/\D/g, '')) || 0)
        .find((d) => d >= 1 && d <= MAX_AUTHORISED_DAYS) ?? 0;
    if (!entry || days === 0) warnings.push('fmm_validity_unreadable');
    const sexo = tickedSex(card);
    if (!sexo) warnings.push('fmm_sex_unreadable');
    const extra: Record<string, string> = {};
    const set = (key: string, value: string) => {
      if (value) extra[key] = value;
    };
    set('nacionalidad', cleanName(readWords(reads.nacionalidad)));
    set('numeroPasaporte', cleanCode(readText(reads.pasaporte)));
    set('paisResidencia', cleanName(readWords(reads.paisResidencia)));
    set('fechaEntrada', dateText(entry));
    set('diasAutorizados', days > 0 ? String(days) : '');
    set('folio', findDigits(readText(reads.folio), 10));
    return {
      ocrData: {
        ...nameFields(nombres, apellidoPaterno, apellidoMaterno),
        fechaNacimiento: birth ? normaliseOcrBirthDate(birth, today) : '',
        sexo,
        vigencia: entry && days > 0 ? lastAuthorisedDay(entry, days) : '',
        ...documentFlags('FMM'),
      },
      extra,
      warnings,
    };
  },
};
