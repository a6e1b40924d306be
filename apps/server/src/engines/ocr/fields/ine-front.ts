/**
 * INE "credencial para votar" front: names on three lines beside the photo, the address, then the
 * codes and dates in label/value rows. Values are read where they are printed, not after their labels
 * (the small labels are misread more often than the values).
 */
import { normaliseOcrBirthDate, ocrCurpOrEmpty, ocrValidityYear } from '@kyc/contracts/rules';
import {
  claveBirthState, claveNameLetters, curpNameLetters, repairClaveFrom, repairCurpFrom,
} from '../id-codes.js';
import {
  asDigits, cleanName, cleanWords, dateText, findDate, findDigits, nameFields, lineWords, readText,
} from './text.js';
import {
  code, CURP_RETRY, DIGITS, documentFlags, line, px, readConfidence, readings, sexLetter, short, type DocumentReader,
  type ParseInput, type ParsedSide,
} from './spec.js';

const H = 1262;
const LABELS = /^(NOMBRE|SEXO|DOMICILIO)$/;

/** The name lines (first surname, second surname, given names) of the best reading: most lines, then confidence. */
function nameLines(input: ParseInput): string[] {
  let best: string[] = [];
  let bestScore = -1;
  for (const reading of readings(input, 'names')) {
    const lines = reading.lines
      .map((line) => cleanName(lineWords(line).join(' ')))
      .filter((line) => line.length >= 2 && !LABELS.test(line))
      .slice(0, 3);
    const score = lines.length * 1000 + readConfidence(reading);
    if (score > bestScore) {
      bestScore = score;
      best = lines;
    }
  }
  return best;
}

export interface IneAddress {
  calle: string;
  numero: string;
  colonia: string;
  cp: string;
  municipio: string;
  estado: string;
}

/** 'C MORELOS 12 INT 3' / 'COL CENTRO 44100' / 'GUADALAJARA, JAL.' as printed on the card. */
export function parseIneAddress(rawLines: string[]): IneAddress {
  const lines = rawLines.map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);
  let coloniaAt = lines.findIndex((l) => /^C[O0]L\b/.test(l) || /(?:^|\s)\d{5}$/.test(asDigits(l)));
  if (coloniaAt < 0 && lines.length >= 3) coloniaAt = 1;
  const street = coloniaAt > 0 ? lines.slice(0, coloniaAt).join(' ') : (lines[0] ?? '');
  const colonia = coloniaAt >= 0 ? lines[coloniaAt]! : '';
  const place = coloniaAt >= 0 ? lines.slice(coloniaAt + 1).join(' ') : lines.slice(1).join(' ');

  const numberMatch = /^(.*?)\s+(\S+(?:\s+INT\.?\s+\S+)?)$/.exec(street);
  const isNumber = (token: string) => /\d/.test(token) && /^\d+$/.test(asDigits(token));
  const numberToken = numberMatch?.[2]?.split(' ')[0] ?? '';
  const hasNumber = numberMatch !== null && isNumber(numberToken);
  const cpMatch = /^(.*?)\s*(\S{5})$/.exec(colonia);
  const cp = cpMatch && /^\d{5}$/.test(asDigits(cpMatch[2]!)) ? asDigits(cpMatch[2]!) : '';
  const comma = place.lastIndexOf(',');
  return {
    // 'C' (calle) is the one single-letter street type printed before the name.
    calle: cleanWords(hasNumber ? numberMatch[1]! : street, { keepPunctuation: true, keepFirst: /^C$/ }),
    numero: hasNumber ? normaliseNumber(numberMatch[2]!) : '',
    colonia: cleanWords((cp ? cpMatch![1]! : colonia).replace(/^C[O0]L\.?\s*/, '')),
    cp,
    municipio: cleanWords(comma >= 0 ? place.slice(0, comma) : place),
    estado: comma >= 0 ? cleanWords(place.slice(comma + 1), { keepPunctuation: true }) : '',
  };
}

/** '138 INT 12' with digit-shaped letters in the numbers read as digits. */
function normaliseNumber(text: string): string {
  return text.split(/\s+/).map((token) => (/^INT\.?$/.test(token) ? 'INT' : asDigits(token))).join(' ');
}

export const ineFront: DocumentReader = {
  documentType: 'INE',
  side: 'front',
  photo: px(H, 0, 120, 640, 990),
  fields: [
    { ...line('names', px(H, 550, 303, 1600, 490)), segmentation: 'block' },
    sexLetter(px(H, 1690, 250, 1800, 318), 'HMX'),
    { key: 'address', region: px(H, 550, 536, 1950, 694), segmentation: 'block' },
    code('claveElector', px(H, 862, 718, 1520, 774), ['clave_elector_format_invalid', 'clave_elector_incomplete']),
    code('curp', px(H, 662, 784, 1285, 840), CURP_RETRY),
    short('registro', px(H, 1560, 784, 1800, 840), `${DIGITS} `),
    line('fechaNacimiento', px(H, 922, 850, 1285, 906), { whitelist: `${DIGITS}/` }),
    short('seccion', px(H, 1435, 850, 1600, 906), DIGITS),
    line('vigencia', px(H, 735, 916, 1285, 972), { whitelist: `${DIGITS}- ` }),
    short('emision', px(H, 1435, 916, 1570, 972), DIGITS),
  ],
  parse(input): ParsedSide {
    const warnings: string[] = [];
    const first = <T>(key: string, read: (text: string) => T | null | '', unreadable = true): T | '' => {
      for (const reading of readings(input, key)) {
        const value = read(readText(reading));
        if (value) return value;
      }
      if (unreadable) warnings.push(`${key}_unreadable`);
      return '';
    };
    const names = nameLines(input);
    if (names.length < 3) warnings.push('names_unreadable');
    // Two lines: one surname and the given names.
    const [apellidoPaterno = '', apellidoMaterno = '', nombres = ''] =
      names.length === 2 ? [names[0], '', names[1]] : names;
    const birth = first('fechaNacimiento', findDate) || null;
    const fechaNacimiento = birth ? normaliseOcrBirthDate(dateText(birth), input.today) : '';
    let sexo = first('sexo', (t) => /[HM]/.exec(t)?.[0] ?? null, false) as 'H' | 'M' | '';
    const names3 = { apellidoPaterno, apellidoMaterno, nombres };
    const claveReads = readings(input, 'claveElector').map(readText);
    const claveFor = (sex: 'H' | 'M' | '') => repairClaveFrom(claveReads, {
      birthDate: birth,
      sex: sex || null,
      nameLetters: claveNameLetters(names3),
    });
    const curp = repairCurpFrom(readings(input, 'curp').map(readText), {
      birthDate: birth,
      sex: sexo || null,
      nameLetters: curpNameLetters(names3),
      // The clave's birth-state digits do not depend on the sex letter.
      birthState: claveBirthState(claveFor('').value),
    });
    // The CURP carries the sex too, under its check digit: a sound CURP settles an unread or misread letter
    // (the mismatch stays reported).
    const curpSound = !curp.warnings.some((w) => w === 'curp_check_digit_failed' || w === 'curp_format_invalid');
    if (curpSound && /[HM]/.test(curp.value[10] ?? '')) sexo = curp.value[10] as 'H' | 'M';
    const clave = claveFor(sexo);
    if (!sexo) warnings.push('sexo_unreadable');
    warnings.push(...curp.warnings, ...clave.warnings);
    const registro = first('registro', (t) => /(?<!\d)((?:19|20)\d{2})\s*(\d{2})(?!\d)/.exec(asDigits(t)));
    const years = first('vigencia', (t) => asDigits(t).match(/\d{4}/g)) || [];
    const addressLines = (input.reads.address?.lines ?? []).map((l) => lineWords(l).join(' ').toUpperCase());
    const address = parseIneAddress(addressLines.filter((l) => !/^DOMICILIO$/.test(l.trim())));
    return {
      ocrData: {
        ...nameFields(nombres, apellidoPaterno, apellidoMaterno),
        fechaNacimiento,
        sexo,
        curp: ocrCurpOrEmpty(curp.value),
        claveElector: clave.value,
        anioRegistro: registro ? registro[1]! : '',
        numeroRegistro: registro ? registro[2]! : '',
        seccion: first('seccion', (t) => findDigits(t, 4)),
        emision: first('emision', (t) => findDigits(t, 2)),
        vigencia: years.length > 0 ? ocrValidityYear(years[years.length - 1]!) : '',
        ...address,
        ...documentFlags('INE'),
      },
      extra: years.length > 1 ? { vigenciaImpresa: `${years[0]} - ${years[years.length - 1]}` } : {},
      warnings,
    };
  },
};
