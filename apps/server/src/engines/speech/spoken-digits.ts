/**
 * The digits a Spanish transcript says, in order: "cuatro siete dos nueve", "4 7 2 9", "4729", "cuatro, siete, dos
 * y nueve", "cuarenta y siete veintinueve", "cuatro mil setecientos veintinueve" all read 4729. Words that are not
 * numbers (fillers, "el código es...") are skipped. Pure.
 */

const table = (entries: Record<string, number>): ReadonlyMap<string, number> => new Map(Object.entries(entries));

const units = table({
  cero: 0,
  un: 1,
  uno: 1,
  una: 1,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
});

/** 10-29 written as one word (accents removed). */
const teens = table({
  diez: 10,
  once: 11,
  doce: 12,
  trece: 13,
  catorce: 14,
  quince: 15,
  dieciseis: 16,
  diecisiete: 17,
  dieciocho: 18,
  diecinueve: 19,
  veinte: 20,
  veintiun: 21,
  veintiuno: 21,
  veintiuna: 21,
  veintidos: 22,
  veintitres: 23,
  veinticuatro: 24,
  veinticinco: 25,
  veintiseis: 26,
  veintisiete: 27,
  veintiocho: 28,
  veintinueve: 29,
});

const tens = table({
  treinta: 30,
  cuarenta: 40,
  cincuenta: 50,
  sesenta: 60,
  setenta: 70,
  ochenta: 80,
  noventa: 90,
});

const hundreds = table({
  cien: 100,
  ciento: 100,
  doscientos: 200,
  doscientas: 200,
  trescientos: 300,
  trescientas: 300,
  cuatrocientos: 400,
  cuatrocientas: 400,
  quinientos: 500,
  quinientas: 500,
  seiscientos: 600,
  seiscientas: 600,
  setecientos: 700,
  setecientas: 700,
  ochocientos: 800,
  ochocientas: 800,
  novecientos: 900,
  novecientas: 900,
});

/** Lower case, no accents, words and digit runs apart ("4y7" -> "4 y 7"), punctuation dropped. */
export function transcriptTokens(transcript: string): string[] {
  return (
    transcript
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/\d+|\p{L}+/gu) ?? []
  );
}

interface Parsed {
  value: number;
  next: number;
}

/** A unit word 1-9 at `i`, else undefined. */
function nonZeroUnit(tokens: readonly string[], i: number): number | undefined {
  const unit = units.get(tokens[i] ?? '');
  return unit !== undefined && unit > 0 ? unit : undefined;
}

/** 0-99 from `i`: "cuarenta y siete", "cuarenta siete", "veintinueve", "diez y seis", "siete". */
function below100(tokens: readonly string[], i: number): Parsed | null {
  const word = tokens[i] ?? '';
  const unit = units.get(word);
  if (unit !== undefined) return { value: unit, next: i + 1 };
  const ten = tens.get(word);
  if (ten !== undefined) {
    // "cuarenta y siete"; also "cuarenta siete", which only a recogniser's spelling would produce.
    const afterY = tokens[i + 1] === 'y' ? i + 2 : i + 1;
    const rest = nonZeroUnit(tokens, afterY);
    return rest === undefined ? { value: ten, next: i + 1 } : { value: ten + rest, next: afterY + 1 };
  }
  const teen = teens.get(word);
  if (teen !== undefined) {
    // "diez y seis", "veinte y nueve": older spellings of one number.
    const rest = (word === 'diez' || word === 'veinte') && tokens[i + 1] === 'y' ? nonZeroUnit(tokens, i + 2) : undefined;
    return rest === undefined ? { value: teen, next: i + 1 } : { value: teen + rest, next: i + 3 };
  }
  return null;
}

/** 0-999 from `i`: "setecientos veintinueve", "ciento dos", "cuatrocientos". */
function below1000(tokens: readonly string[], i: number): Parsed | null {
  const hundred = hundreds.get(tokens[i] ?? '');
  if (hundred === undefined) return below100(tokens, i);
  const rest = below100(tokens, i + 1);
  // No "cero" after a hundred: "cien cero" is two numbers.
  return rest && rest.value > 0 ? { value: hundred + rest.value, next: rest.next } : { value: hundred, next: i + 1 };
}

/** A whole cardinal from `i`, thousands included: "cuatro mil setecientos veintinueve", "mil dos". */
function cardinal(tokens: readonly string[], i: number): Parsed | null {
  const head = below1000(tokens, i);
  if (tokens[head?.next ?? i] === 'mil') {
    if (head?.value === 0) return head;
    const thousands = (head?.value ?? 1) * 1000;
    const tail = below1000(tokens, (head?.next ?? i) + 1);
    if (tail && tail.value > 0) return { value: thousands + tail.value, next: tail.next };
    return { value: thousands, next: (head?.next ?? i) + 1 };
  }
  return head;
}

/** Every digit the transcript says, in order ("" when none). */
export function spokenDigits(transcript: string): string {
  const tokens = transcriptTokens(transcript);
  let digits = '';
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (/^\d+$/.test(token)) {
      digits += token;
      i += 1;
      continue;
    }
    const parsed = cardinal(tokens, i);
    if (parsed) {
      digits += String(parsed.value);
      i = parsed.next;
    } else {
      i += 1;
    }
  }
  return digits;
}

/** Whether the transcript says the code's digits one after the other (other numbers before or after are allowed). */
export function saysCode(transcript: string, code: string): { verified: boolean; heard: string } {
  const heard = spokenDigits(transcript);
  return { verified: code.length > 0 && heard.includes(code), heard };
}
