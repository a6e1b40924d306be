/**
 * Passport data page (the Mexican layout's boxes; any ICAO passport through its MRZ): labelled values in two
 * columns beside the photo and the TD3 MRZ below. Dates print as 'DD MM YYYY'. The MRZ is cross-checked with
 * the printed values: where they differ and the zone validates, the MRZ's value is returned and the
 * disagreement recorded (`mrz_front_mismatch:<field>`); a zone that fails its check digits only fills what the
 * print lacks (such a page is refused anyway, see docs/decisions.md).
 */
import { normaliseOcrBirthDate, ocrCurpOrEmpty } from '@kyc/contracts/rules';
import { cleanCode, curpNameLetters, repairCurpFrom, stateCodeFromName } from '../id-codes.js';
import { mrzNameGivenFirst } from '../mrz-parse.js';
import type { MrzResult } from '../mrz.js';
import { correctMrzNameFromPrint, mrzFacts, mrzTransliteration, reconcile, sameMrzName } from './mrz-facts.js';
import { bestReading, code, CODE_CHARS, CURP_RETRY, DIGITS, documentFlags, line, px, readings, sexLetter, type DocumentReader, type ParsedSide } from './spec.js';
import { cleanName, dateText, findDate, nameFields, readText, readWords, splitSurnames } from './text.js';

const H = 1408;

/** Words of the page's labels (Spanish, English, French): a name box that holds one read a label, not a name. */
const LABEL_WORDS = new Set([
  'APELLIDO',
  'APELLIDOS',
  'SURNAME',
  'SURNAMES',
  'NOM',
  'NOMS',
  'NOMBRE',
  'NOMBRES',
  'NAME',
  'NAMES',
  'GIVEN',
  'PRENOMS',
  'NACIONALIDAD',
  'NATIONALITY',
  'NATIONALITE',
  'PASAPORTE',
  'PASSPORT',
  'PASSEPORT',
  'TIPO',
  'TYPE',
  'SEXO',
  'SEX',
  'SEXE',
  'FECHA',
  'DATE',
  'BIRTH',
  'NACIMIENTO',
  'LUGAR',
  'PLACE',
  'AUTORIDAD',
  'AUTHORITY',
  'CODE',
  'CLAVE',
  'EXPIRY',
  'ISSUE',
  'CADUCIDAD',
  'EXPEDICION',
]);

const isMexican = (mrz: MrzResult): boolean => mrz.lines[0]?.slice(2, 5) === 'MEX';

/** The printed name, or '' when a word of it is a label word (the box read the label, not the value). */
export function withoutLabels(name: string): string {
  return mrzTransliteration(name)
    .split(' ')
    .some((w) => LABEL_WORDS.has(w))
    ? ''
    : name;
}

export const passportFront: DocumentReader = {
  documentType: 'PASAPORTE',
  side: 'front',
  photo: px(H, 0, 90, 620, 880),
  fields: [
    line('numero', px(H, 1490, 227, 1960, 275), { whitelist: CODE_CHARS, retryOn: [] }),
    line('apellidos', px(H, 550, 325, 1900, 375)),
    line('nombres', px(H, 550, 425, 1900, 475)),
    line('nacionalidad', px(H, 550, 525, 1130, 575), { retryOn: [] }),
    line('fechaNacimiento', px(H, 1140, 525, 1640, 575), { whitelist: `${DIGITS} `, retryOn: [] }),
    code('curp', px(H, 550, 625, 1130, 675), CURP_RETRY),
    sexLetter(px(H, 1140, 625, 1300, 675), 'MF'),
    line('lugarNacimiento', px(H, 550, 725, 1130, 775), { retryOn: [] }),
    line('fechaExpedicion', px(H, 550, 825, 1130, 875), { whitelist: `${DIGITS} `, retryOn: [] }),
    line('fechaCaducidad', px(H, 1140, 825, 1640, 875), { whitelist: `${DIGITS} `, retryOn: [] }),
  ],
  // The boxes are the Mexican page's: another state's page is read through its MRZ once that validates.
  fieldsToRead(mrz) {
    return mrz?.valid && !isMexican(mrz) ? [] : this.fields;
  },
  parse(input): ParsedSide {
    const { reads, mrz, today } = input;
    const mexican = !mrz || isMexican(mrz);
    const warnings: string[] = [];
    const firstWords = (key: string): string => {
      const found = withoutLabels(cleanName(readWords(bestReading(input, key))) ?? '');
      if (!found) warnings.push(`${key}_unreadable`);
      return found;
    };
    let [apellidoPaterno, apellidoMaterno] = splitSurnames(firstWords('apellidos'));
    let nombres = firstWords('nombres');
    let sexo =
      readings(input, 'sexo')
        .map((r) => /[MF]/.exec(readText(r))?.[0])
        .find(Boolean) ?? '';
    let numero = cleanCode(readText(reads.numero));
    let birth = dateText(findDate(readText(reads.fechaNacimiento)));
    let expiry = dateText(findDate(readText(reads.fechaCaducidad)));
    const extra: Record<string, string> = {};
    let ocrBack: Record<string, string> | undefined;
    let mrzLines: string[] | undefined;

    if (mrz) {
      const facts = mrzFacts(mrz, today);
      // A zone that validates is the better witness of every fact it holds; one that fails only of the values
      // its own verified check digits cover.
      const trust = (covered: boolean) => mrz.valid || covered;
      numero = reconcile('numeroPasaporte', numero, facts.documentNumber, trust(facts.trusted.documentNumber), warnings);
      birth = reconcile('fechaNacimiento', birth, facts.birthDate, trust(facts.trusted.birthDate), warnings);
      expiry = reconcile('vigencia', expiry, facts.expiryDate, trust(facts.trusted.expiryDate), warnings);
      const icaoSex = facts.sex === 'H' ? 'M' : facts.sex === 'M' ? 'F' : null;
      sexo = reconcile('sexo', sexo, icaoSex, mrz.valid, warnings);
      const printedNames = apellidoPaterno || nombres;
      mrzLines = printedNames ? (correctMrzNameFromPrint(mrz, [apellidoPaterno, apellidoMaterno], nombres) ?? undefined) : undefined;
      const namesAgree = mrzLines !== undefined || sameMrzName([apellidoPaterno, apellidoMaterno], nombres, mrz);
      if (printedNames && !namesAgree) warnings.push('mrz_front_mismatch:nombreCompleto');
      if (!printedNames || (!namesAgree && mrz.valid)) {
        [apellidoPaterno, apellidoMaterno] = splitSurnames(facts.surnames.join(' '));
        nombres = facts.given;
        for (const key of ['apellidos', 'nombres']) {
          const at = warnings.indexOf(`${key}_unreadable`);
          if (at >= 0 && (key === 'nombres' ? nombres : apellidoPaterno)) warnings.splice(at, 1);
        }
      }
      const lines = mrzLines ?? mrz.lines;
      ocrBack = { cadena: lines.join('\n'), nombreCompletoMRZ: mrzNameGivenFirst(lines[0]!.slice(5)) };
      if (!mrz.valid) warnings.push('mrz_check_digits_failed');
    }
    if (!sexo) warnings.push('sexo_unreadable');

    const lugarNacimiento = cleanName(readWords(reads.lugarNacimiento));
    // Only a Mexican passport prints a CURP.
    const curp = !mexican
      ? { value: '', warnings: [] as string[] }
      : repairCurpFrom(readings(input, 'curp').map(readText), {
          birthDate: findDate(birth),
          sex: sexo === 'M' ? 'H' : sexo === 'F' ? 'M' : null,
          nameLetters: curpNameLetters({ apellidoPaterno, apellidoMaterno, nombres }),
          birthState: stateCodeFromName(lugarNacimiento),
        });
    warnings.push(...curp.warnings);
    if (numero) extra.numeroPasaporte = numero;
    const nacionalidad = cleanName(readWords(reads.nacionalidad));
    if (nacionalidad) extra.nacionalidad = nacionalidad;
    if (lugarNacimiento) extra.lugarNacimiento = lugarNacimiento;
    const issued = dateText(findDate(readText(reads.fechaExpedicion)));
    if (issued) extra.fechaExpedicion = issued;
    return {
      ocrData: {
        ...nameFields(nombres, apellidoPaterno, apellidoMaterno),
        fechaNacimiento: birth ? normaliseOcrBirthDate(birth, today) : '',
        sexo,
        curp: ocrCurpOrEmpty(curp.value),
        vigencia: expiry,
        ...documentFlags('PASAPORTE'),
      },
      ...(ocrBack ? { ocrBack } : {}),
      ...(mrzLines ? { mrzLines } : {}),
      extra,
      warnings,
    };
  },
};
