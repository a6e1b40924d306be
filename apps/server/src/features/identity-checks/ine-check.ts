import { isCalendarDate, parseStrictDate } from '@kyc/contracts/rules';
import type { RuleResult } from './curp-check.js';

/**
 * The INE credential check (docs/flow.md §7 INE call): formats of the CIC, the 13-digit OCR number, the clave de
 * elector and the emission number, and their consistency with this transaction's reads: the back's TD1 MRZ
 * (`IDMEX` + CIC + check digit + `<<` + sección + identificador del ciudadano) and the front (clave de
 * elector, emisión, sección, birth date and sex).
 */
export type IneData = { cic: string } | { ocr: string; claveElector: string; numeroEmisionCredencial: string };

export interface IneBackRead {
  /** The MRZ lines as read (TD1: three of 30). */
  mrzLines?: string[];
  /** Every check digit of the zone verified. */
  mrzValid?: boolean;
}

export interface IneFrontRead {
  claveElector?: string;
  emision?: string;
  seccion?: string;
  /** DD/MM/YYYY. */
  fechaNacimiento?: string;
  sexo?: string;
}

const icaoValues = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** ICAO 9303 check digit (weights 7-3-1, '<' = 0). */
export function icaoCheckDigit(field: string): string | null {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const value = c === '<' ? 0 : icaoValues.indexOf(c);
    if (value < 0) return null;
    sum += value * [7, 3, 1][i % 3]!;
  }
  return String(sum % 10);
}

/** 6 letters, YYMMDD, the birth state's number (01-32, 87/88 born abroad), H/M, 3 digits. */
export function claveElectorProblem(clave: string): string | null {
  const match = /^[A-Z]{6}(\d{2})(\d{2})(\d{2})(\d{2})([HM])\d{3}$/.exec(clave);
  if (!match) return clave.length === 18 ? 'not 6 letters, 8 digits, H or M and 3 digits' : `${clave.length} characters, 18 expected`;
  const [, , mm, dd, state] = match;
  // Any century: only the month and day can be judged (29 Feb in a leap year of either century).
  if (!isCalendarDate(Number(dd), Number(mm), 2000) && !isCalendarDate(Number(dd), Number(mm), 1996)) return 'the birth date is not a date';
  const n = Number(state);
  if (!((n >= 1 && n <= 32) || n === 87 || n === 88)) return `birth state ${state} is not a state number`;
  return null;
}

const pass = (rule: string, detail: string): RuleResult => ({ rule, passed: true, detail });
const fail = (rule: string, detail: string): RuleResult => ({ rule, passed: false, detail });
const same = (rule: string, a: string, b: string, what: string, where: string): RuleResult => (a === b ? pass(rule, `the ${what} matches ${where}`) : fail(rule, `the ${what} differs from ${where}`));

export function ineRules(data: IneData, back: IneBackRead | undefined, front: IneFrontRead | undefined): { checks: RuleResult[]; consistencyChecked: boolean } {
  const checks: RuleResult[] = [];
  const line1 = back?.mrzLines?.[0] ?? '';
  const mrz = /^ID[A-Z<]{3}(\d{9})(\d)<<(\d{4})(\d{9})$/.exec(line1);
  let consistency = 0;

  if ('cic' in data) {
    const cic = data.cic.trim();
    const format = /^\d{9}$/.test(cic);
    checks.push(format ? pass('formato_cic', '9 digits') : fail('formato_cic', `${cic.length} characters, 9 digits expected`));
    if (format && mrz) {
      checks.push(same('cic_mrz', cic, mrz[1]!, 'CIC', 'the back MRZ'));
      const digit = icaoCheckDigit(cic);
      checks.push(digit === mrz[2] ? pass('cic_digito_verificador', `MRZ check digit ${digit}`) : fail('cic_digito_verificador', `the MRZ check digit ${mrz[2]} does not cover this CIC (${digit})`));
      consistency += 2;
    }
  } else {
    const ocr = data.ocr.trim();
    const clave = data.claveElector.trim().toUpperCase();
    const emision = data.numeroEmisionCredencial.trim();
    const ocrFormat = /^\d{13}$/.test(ocr);
    checks.push(ocrFormat ? pass('formato_ocr', '13 digits') : fail('formato_ocr', `${ocr.length} characters, 13 digits expected`));
    const claveProblem = claveElectorProblem(clave);
    checks.push(claveProblem ? fail('formato_clave_elector', claveProblem) : pass('formato_clave_elector', '18 characters in the clave de elector layout'));
    const emisionFormat = /^\d{2}$/.test(emision);
    checks.push(emisionFormat ? pass('formato_emision', '2 digits') : fail('formato_emision', `${emision.length} characters, 2 digits expected`));
    if (ocrFormat && mrz) {
      checks.push(same('ocr_mrz', ocr, mrz[3]! + mrz[4]!, 'OCR number', 'the sección and citizen id of the back MRZ'));
      consistency++;
    }
    if (ocrFormat && front?.seccion && /^\d{4}$/.test(front.seccion)) {
      checks.push(same('seccion_frente', ocr.slice(0, 4), front.seccion, 'sección of the OCR number', 'the front'));
      consistency++;
    }
    if (!claveProblem && front?.claveElector) {
      checks.push(same('clave_elector_frente', clave, front.claveElector.toUpperCase(), 'clave de elector', 'the front'));
      consistency++;
    }
    if (emisionFormat && front?.emision && /^\d{2}$/.test(front.emision)) {
      checks.push(same('emision_frente', emision, front.emision, 'emission number', 'the front'));
      consistency++;
    }
    const born = front?.fechaNacimiento ? parseStrictDate(front.fechaNacimiento) : null;
    if (!claveProblem && born) {
      const yymmdd = `${String(born.year % 100).padStart(2, '0')}${String(born.month).padStart(2, '0')}${String(born.day).padStart(2, '0')}`;
      checks.push(same('clave_fecha_nacimiento', clave.slice(6, 12), yymmdd, 'birth date in the clave de elector', 'the front'));
      consistency++;
    }
    const sex = front?.sexo?.toUpperCase();
    if (!claveProblem && (sex === 'H' || sex === 'M')) {
      checks.push(same('clave_sexo', clave[14]!, sex, 'sex in the clave de elector', 'the front'));
      consistency++;
    }
  }
  if (back?.mrzLines && back.mrzLines.length > 0) {
    checks.push(back.mrzValid ? pass('mrz_digitos_verificadores', 'every MRZ check digit verified') : fail('mrz_digitos_verificadores', 'the back MRZ does not verify its check digits'));
  }
  return { checks, consistencyChecked: consistency > 0 };
}

/** What an INE list answer says: the credential is known and current. */
export function listRules(record: { found: boolean; current?: boolean; detail?: string }): RuleResult[] {
  if (!record.found) return [fail('lista_nominal', record.detail ?? 'the INE does not know this credential')];
  const checks = [pass('lista_nominal', 'the INE knows this credential')];
  if (record.current !== undefined) {
    checks.push(record.current ? pass('credencial_vigente', 'the credential is current') : fail('credencial_vigente', record.detail ?? 'the credential is not current'));
  }
  return checks;
}
