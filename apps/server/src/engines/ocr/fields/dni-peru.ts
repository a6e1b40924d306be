/**
 * Peru DNI: front with the number and its check character in the header, names on three labelled
 * lines, dates as 'DD MM YYYY'; back with the address and the TD1 MRZ.
 */
import { normaliseOcrBirthDate } from '@kyc/contracts/rules';
import { mrzNameGivenFirst } from '../mrz-parse.js';
import { mrzAgainstFront, mrzFacts, reconcile } from './mrz-facts.js';
import { bestReading, DIGITS, documentFlags, line, px, readings, sexLetter, type DocumentReader, type ParsedSide } from './spec.js';
import { asDigits, cleanName, dateText, findDate, nameFields, readText, readWords } from './text.js';

const H = 1262;

/** RENIEC check character of an 8-digit DNI: the digit form and the letter form. */
export function dniCheckCharacters(dni: string): { digit: string; letter: string } | null {
  if (!/^\d{8}$/.test(dni)) return null;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += weights[i]! * Number(dni[i]);
  const c = sum % 11;
  return { digit: '65432110987'[c]!, letter: 'KJIHGFEDCBA'[c]! };
}

/** '56440282 - 1' → number and check character; the 'DNI' caption before it may be read as digits. */
export function parseDniNumber(text: string): { dni: string; check: string } {
  const digits = asDigits(text).replace(/[^\d-]/g, ' ');
  const dashed = /(\d{8})\s*-\s*(\d)/.exec(digits);
  if (dashed) return { dni: dashed[1]!, check: dashed[2]! };
  const run = digits.replace(/\D/g, '');
  if (run.length >= 9) return { dni: run.slice(-9, -1), check: run.slice(-1) };
  return { dni: run.length === 8 ? run : '', check: '' };
}

export const dniPeruFront: DocumentReader = {
  documentType: 'DNI_PERU',
  side: 'front',
  photo: px(H, 0, 140, 620, 940),
  fields: [
    line('dni', px(H, 1490, 40, 1955, 124), {
      whitelist: `${DIGITS}- `,
      retryOn: ['dni_check_digit_failed', 'dni_unreadable'],
    }),
    line('apellidoPaterno', px(H, 565, 292, 1900, 352)),
    line('apellidoMaterno', px(H, 565, 407, 1900, 467)),
    line('nombres', px(H, 565, 522, 1900, 582)),
    line('fechaNacimiento', px(H, 565, 658, 1030, 714), { whitelist: `${DIGITS} ` }),
    sexLetter(px(H, 1040, 658, 1200, 714), 'MF'),
    line('fechaEmision', px(H, 565, 798, 1030, 854), { whitelist: `${DIGITS} ` }),
    line('fechaCaducidad', px(H, 1040, 798, 1500, 854), { whitelist: `${DIGITS} ` }),
  ],
  parse(input): ParsedSide {
    const { reads, today } = input;
    const warnings: string[] = [];
    const numbers = readings(input, 'dni').map((r) => parseDniNumber(readText(r)));
    const checked = numbers.find(({ dni, check }) => {
      const expected = dniCheckCharacters(dni);
      return expected !== null && (check === expected.digit || check === expected.letter);
    });
    const { dni, check } = checked ?? numbers.find((n) => n.dni) ?? { dni: '', check: '' };
    if (!dni) warnings.push('dni_unreadable');
    else if (!checked && check) warnings.push('dni_check_digit_failed');
    const name = (key: string): string => {
      const found = cleanName(readWords(bestReading(input, key)));
      if (!found) warnings.push(`${key}_unreadable`);
      return found ?? '';
    };
    const apellidoPaterno = name('apellidoPaterno');
    const apellidoMaterno = name('apellidoMaterno');
    const nombres = name('nombres');
    const sexo =
      readings(input, 'sexo')
        .map((r) => /[MF]/.exec(readText(r))?.[0])
        .find(Boolean) ?? '';
    if (!sexo) warnings.push('sexo_unreadable');
    const birth = dateText(findDate(readText(reads.fechaNacimiento)));
    const extra: Record<string, string> = {};
    if (check) extra.dniDigitoVerificador = check;
    const issued = dateText(findDate(readText(reads.fechaEmision)));
    if (issued) extra.fechaEmision = issued;
    return {
      ocrData: {
        ...nameFields(nombres, apellidoPaterno, apellidoMaterno),
        fechaNacimiento: birth ? normaliseOcrBirthDate(birth, today) : '',
        sexo,
        dni,
        vigencia: dateText(findDate(readText(reads.fechaCaducidad))),
        ...documentFlags('DNI_PERU'),
      },
      extra,
      warnings,
    };
  },
};

export const dniPeruBack: DocumentReader = {
  documentType: 'DNI_PERU',
  side: 'back',
  fields: [],
  parse({ mrz, today, front }): ParsedSide {
    const warnings: string[] = [];
    if (!mrz) return { ocrData: {}, extra: {}, warnings: ['mrz_not_found'] };
    if (!mrz.valid) warnings.push('mrz_check_digits_failed');
    const { text, corrected, lines, checkName } = mrzAgainstFront(mrz, front);
    if (front) {
      const facts = mrzFacts(mrz, today);
      reconcile('dni', text('dni'), facts.documentNumber, facts.trusted.documentNumber, warnings);
      reconcile('fechaNacimiento', text('fechaNacimiento'), facts.birthDate, facts.trusted.birthDate, warnings);
      reconcile('vigencia', text('vigencia'), facts.expiryDate, facts.trusted.expiryDate, warnings);
      const printedSex = text('sexo') === 'M' ? 'H' : text('sexo') === 'F' ? 'M' : '';
      reconcile('sexo', printedSex, facts.sex, false, warnings);
      checkName(warnings);
    }
    return {
      ocrData: { cadena: lines.join('\n'), nombreCompletoMRZ: mrzNameGivenFirst(lines[2] ?? '') },
      extra: {},
      warnings,
      ...(corrected ? { mrzLines: corrected } : {}),
    };
  },
};
