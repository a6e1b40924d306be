import { curpBirthDate, curpCheckDigit, curpSex, curpState, isCurpCheckDigitValid, isCurpFormat, parseStrictDate } from '@kyc/contracts/rules';
import { claveBirthState, curpNameLetters } from '../../engines/ocr/id-codes.js';
import type { CheckOutcome, CurpCheck } from '../../domain/evidence-kinds.js';

/** One rule's result, as CurpCheck / IneCheck list them. */
export interface RuleResult {
  rule: string;
  passed: boolean;
  detail: string;
}

/** What the ID read of this transaction says about its holder (ocr_frente's ocrData), all optional. */
export interface IdHolder {
  nombres?: string;
  apellidoPaterno?: string;
  apellidoMaterno?: string;
  /** DD/MM/YYYY. */
  fechaNacimiento?: string;
  /** H or M. */
  sexo?: string;
  /** The INE clave de elector: its 15th-16th characters are the birth state's number. */
  claveElector?: string;
}

/** Strings from an evidence payload's ocrData, anything else dropped. */
export function idHolderFrom(ocrData: Record<string, unknown> | undefined): IdHolder {
  const text = (key: string) => (typeof ocrData?.[key] === 'string' ? (ocrData[key] as string).trim() : undefined) || undefined;
  return {
    nombres: text('nombres'),
    apellidoPaterno: text('apellidoPaterno'),
    apellidoMaterno: text('apellidoMaterno'),
    fechaNacimiento: text('fechaNacimiento'),
    sexo: text('sexo'),
    claveElector: text('claveElector'),
  };
}

/** Trim, uppercase, inner spaces removed: how a CURP typed or read is compared. */
export function normaliseCurp(value: string): string {
  return value.normalize('NFC').toUpperCase().replace(/\s+/g, '');
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * The CURP's own rules (docs/flow.md §5 pattern, real birth date, RENAPO check digit) and its consistency with the
 * ID read of the transaction: the four name letters (RENAPO instructivo: first surname's initial and first
 * inner vowel, second surname's initial or X, given name's initial skipping MARÍA/JOSÉ before another name,
 * particles dropped, Ñ as X, inconvenient words with X in second place) and the three inner consonants, the
 * birth date, the sex and the birth state (from the clave de elector). Rules whose input is missing are left
 * out; `consistencyChecked` says whether any consistency rule ran.
 */
export function curpRules(curp: string, holder: IdHolder | undefined): { checks: RuleResult[]; consistencyChecked: boolean } {
  const checks: RuleResult[] = [];
  const structure = isCurpFormat(curp);
  checks.push({
    rule: 'estructura',
    passed: structure,
    detail: structure
      ? 'letters, date, sex, state and consonants where the CURP pattern puts them'
      : curp.length !== 18
        ? `${curp.length} characters, 18 expected`
        : 'does not match the CURP pattern (letters, date, sex, state code, consonants)',
  });
  if (curp.length === 18) {
    const expected = curpCheckDigit(curp.slice(0, 17));
    const valid = isCurpCheckDigitValid(curp);
    checks.push({
      rule: 'digito_verificador',
      passed: valid,
      detail: expected === null ? 'characters outside the CURP alphabet' : valid ? `check digit ${expected}` : `check digit ${curp[17]} read, ${expected} expected`,
    });
  }
  if (!structure || !holder) return { checks, consistencyChecked: false };

  const before = checks.length;
  const letters =
    holder.apellidoPaterno && holder.nombres ? curpNameLetters({ apellidoPaterno: holder.apellidoPaterno, apellidoMaterno: holder.apellidoMaterno ?? '', nombres: holder.nombres }) : null;
  if (letters) {
    const initials = curp.slice(0, 4);
    checks.push({
      rule: 'iniciales_nombre',
      passed: initials === letters.initials,
      detail: initials === letters.initials ? 'positions 1-4 follow from the names on the ID' : `positions 1-4 are ${initials}, the names on the ID give ${letters.initials}`,
    });
    const consonants = curp.slice(13, 16);
    checks.push({
      rule: 'consonantes_nombre',
      passed: consonants === letters.consonants,
      detail: consonants === letters.consonants ? 'positions 14-16 follow from the names on the ID' : `positions 14-16 are ${consonants}, the names on the ID give ${letters.consonants}`,
    });
  }
  const born = holder.fechaNacimiento ? parseStrictDate(holder.fechaNacimiento) : null;
  const fromCurp = curpBirthDate(curp);
  if (born && fromCurp) {
    const same = born.year === fromCurp.year && born.month === fromCurp.month && born.day === fromCurp.day;
    checks.push({
      rule: 'fecha_nacimiento',
      passed: same,
      detail: same ? 'the birth date matches the ID' : `the CURP gives ${pad2(fromCurp.day)}/${pad2(fromCurp.month)}/${fromCurp.year}, the ID another date`,
    });
  }
  const sex = holder.sexo?.toUpperCase();
  if (sex === 'H' || sex === 'M') {
    const same = curpSex(curp) === sex;
    checks.push({ rule: 'sexo', passed: same, detail: same ? 'the sex matches the ID' : `the CURP says ${curpSex(curp)}, the ID ${sex}` });
  }
  const state = holder.claveElector ? claveBirthState(holder.claveElector) : null;
  if (state) {
    const same = curpState(curp) === state;
    checks.push({
      rule: 'entidad_nacimiento',
      passed: same,
      detail: same ? 'the birth state matches the clave de elector' : `the CURP says ${curpState(curp)}, the clave de elector ${state}`,
    });
  }
  return { checks, consistencyChecked: checks.length > before };
}

/**
 * Failed when any rule failed; passed when every rule passed and the CURP was confirmed by something outside
 * itself (the ID read or a registry); otherwise not checked.
 */
export function overallOutcome(checks: readonly RuleResult[], confirmed: boolean): CheckOutcome {
  if (checks.some((c) => !c.passed)) return 'failed';
  return confirmed && checks.length > 0 ? 'passed' : 'not_checked';
}

export function curpCheckResult(curp: string, checks: RuleResult[], confirmed: boolean, source: string): CurpCheck {
  return { curp, outcome: overallOutcome(checks, confirmed), checks, source };
}

/** Names compared as RENAPO and the ID print them may differ: case, accents, punctuation, spacing. */
export function plainName(value: string): string {
  return value
    .toUpperCase()
    .replace(/Ñ/g, '\u0000')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\u0000/g, 'Ñ')
    .replace(/[^A-ZÑ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What a RENAPO registry answer says about the CURP and the ID holder. */
export function registryRules(
  record: { found: boolean; curpStatus?: string; names?: string; firstSurname?: string; secondSurname?: string; birthDate?: string; sex?: string },
  curp: string,
  holder: IdHolder | undefined,
): RuleResult[] {
  if (!record.found) return [{ rule: 'renapo_registro', passed: false, detail: 'the registry does not know this CURP' }];
  const status = record.curpStatus?.toUpperCase();
  const cancelled = status !== undefined && status.startsWith('B');
  const checks: RuleResult[] = [
    { rule: 'renapo_registro', passed: !cancelled, detail: cancelled ? `the registry lists the CURP as cancelled (${status})` : `registered${status ? ` (${status})` : ''}` },
  ];
  if (record.names && record.firstSurname && holder?.nombres && holder.apellidoPaterno) {
    const registry = plainName([record.names, record.firstSurname, record.secondSurname ?? ''].join(' '));
    const printed = plainName([holder.nombres, holder.apellidoPaterno, holder.apellidoMaterno ?? ''].join(' '));
    checks.push({
      rule: 'renapo_nombre',
      passed: registry === printed,
      detail: registry === printed ? 'the registry holds the name on the ID' : 'the registry holds another name than the ID',
    });
  }
  const born = curpBirthDate(curp);
  if (record.birthDate && born) {
    const same = record.birthDate === `${born.year}-${pad2(born.month)}-${pad2(born.day)}`;
    checks.push({ rule: 'renapo_fecha_nacimiento', passed: same, detail: same ? 'the registry holds the CURP birth date' : 'the registry holds another birth date' });
  }
  if (record.sex && (record.sex === 'H' || record.sex === 'M' || record.sex === 'X')) {
    const same = record.sex === curpSex(curp);
    checks.push({ rule: 'renapo_sexo', passed: same, detail: same ? 'the registry holds the CURP sex' : 'the registry holds another sex' });
  }
  return checks;
}
