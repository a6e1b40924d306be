// Label-anchored reading on word boxes as tesseract reports them, card finding without a card edge, and the
// verdict on an unreadable INE front.
import { describe, expect, it } from 'vitest';
import { textBlockExtent } from '../../../src/engines/ocr/card-detect.js';
import { headerShows, isLabelWord, readFrontByLabels } from '../../../src/engines/ocr/fields/ine-anchored.js';
import { ineFront } from '../../../src/engines/ocr/fields/ine-front.js';
import { INE_LABELS } from '../../../src/engines/ocr/fields/ine-layouts.js';
import { findLabels } from '../../../src/engines/ocr/fields/labels.js';
import type { RawImage } from '../../../src/engines/ocr/homography.js';
import type { RawLine, RawRead } from '../../../src/engines/ocr/pool.js';
import { judgeRead } from '../../../src/features/id-capture/id-reading.js';
import type { OcrResult } from '../../../src/engines/ocr/types.js';

const W = 2000;
const H = 1262;

/** A line of words starting at (x, y): 'word@40' sets a confidence of 40; letters 0.6 of the height wide. */
function line(x: number, y: number, text: string, height = 30): RawLine {
  let cursor = x;
  const words = text
    .split(' ')
    .filter(Boolean)
    .map((token) => {
      const [word = '', conf] = token.split('@');
      const box = { x0: cursor, y0: y, x1: cursor + word.length * height * 0.6, y1: y + height };
      cursor = box.x1 + height * 0.5;
      return { text: word, confidence: conf ? Number(conf) : 92, box, symbols: [] };
    });
  return { text: words.map((w) => w.text).join(' '), confidence: 90, box: { x0: x, y0: y, x1: cursor, y1: y + height }, words };
}

const page = (...lines: RawLine[]): RawRead => ({ text: lines.map((l) => l.text).join('\n'), lines });

/** The "desde el extranjero" front as its words would be read: bilingual labels, stacked values, no SECCIÓN. */
const abroad = page(
  line(250, 60, 'MÉXICO', 40),
  line(250, 120, 'INSTITUTO NACIONAL ELECTORAL', 40),
  line(250, 180, 'CREDENCIAL PARA VOTAR DESDE EL EXTRANJERO', 36),
  line(575, 280, 'NOMBRE / NAME', 22),
  line(1450, 280, 'FECHA DE NACIMIENTO / DATE OF BIRTH', 22),
  line(575, 320, 'GOMEZ', 40),
  line(1450, 320, '15/03/1985', 40),
  line(575, 372, 'PEREZ', 40),
  line(1450, 392, 'SEXO / SEX', 22),
  line(575, 424, 'MARIA FERNANDA', 40),
  line(1450, 432, 'M', 40),
  line(575, 505, 'DOMICILIO / ADDRESS', 22),
  line(575, 545, '1813 OAK AVE APT 22', 36),
  line(575, 592, 'LOS ANGELES, CA 64812', 36),
  line(575, 639, 'ESTADOS UNIDOS', 36),
  line(575, 694, 'CLAVE DE ELECTOR GMPRMR85031514M300', 26),
  line(575, 746, 'cuR?P GOPM850315MJCMRR09 AÑO DE REGISTRO 2019 03', 26),
  line(575, 798, 'LUGAR DE NACIMIENTO / PLACE OF BIRTH', 22),
  line(575, 836, 'JALISCO', 36),
  line(575, 910, 'ESTADO', 22),
  line(780, 910, 'EMISIÓN', 22),
  line(990, 910, 'VIGENCIA', 22),
  line(575, 948, '14', 36),
  line(780, 948, '01', 36),
  line(990, 948, '2019 - 2029', 36),
);

/** A line from the words tesseract reported: [text, confidence, x0, y0, x1, y1] in card pixels. */
function wordsLine(...words: Array<[string, number, number, number, number, number]>): RawLine {
  const ws = words.map(([text, confidence, x0, y0, x1, y1]) => ({ text, confidence, box: { x0, y0, x1, y1 }, symbols: [] }));
  const box = { x0: Math.min(...ws.map((w) => w.box.x0)), y0: Math.min(...ws.map((w) => w.box.y0)), x1: Math.max(...ws.map((w) => w.box.x1)), y1: Math.max(...ws.map((w) => w.box.y1)) };
  return { text: ws.map((w) => w.text).join(' '), confidence: 90, box, words: ws };
}

/**
 * The credential issued abroad as the page read saw it on a blurred phone photo (generated, seed 11, front 0,
 * turned a quarter; words and boxes as tesseract reported them): the header read whole, the small labels lost
 * but AÑO DE REGISTRO, 'SEXO / SEX' read as 'EX' beside the second surname, and ESTADOS of the address taken
 * for the ESTADO label. The two labels fit the older E/F model as well.
 */
const blurredAbroad = page(
  wordsLine(['O', 92, 59, 37, 223, 201]),
  wordsLine(['MÉXICO', 96, 261, 44, 450, 86]),
  wordsLine(['INSTITUTO', 96, 261, 110, 504, 146], ['NACIONAL', 96, 524, 111, 760, 146], ['ELECTORAL', 96, 780, 111, 1041, 146]),
  wordsLine(
    ['CREDENCIAL', 96, 260, 173, 503, 204],
    ['PARA', 96, 521, 174, 620, 203],
    ['VOTAR', 96, 637, 174, 764, 203],
    ['DESDE', 96, 783, 174, 907, 203],
    ['EL', 96, 927, 174, 967, 203],
    ['EXTRANJERO', 95, 986, 174, 1233, 211],
  ),
  wordsLine(['HERRERA', 96, 561, 283, 774, 346], ['01/06/1996', 88, 1436, 280, 1703, 343]),
  wordsLine(['|', 40, 513, 394, 516, 400], ['REYES', 95, 561, 366, 703, 401], ['EX', 85, 1454, 397, 1479, 403]),
  wordsLine(['ANA', 96, 559, 421, 656, 457], ['SOFIA', 96, 673, 421, 809, 457], ['M', 91, 1437, 429, 1471, 463]),
  wordsLine(['4112', 96, 560, 549, 656, 580], ['MAPLE', 96, 674, 549, 807, 580], ['DR', 95, 826, 549, 879, 580], ['APT', 93, 894, 549, 971, 580], ['4', 93, 986, 550, 1009, 580]),
  wordsLine(['HOUSTON,', 96, 561, 599, 771, 634], ['TX', 96, 787, 599, 837, 630], ['56109', 96, 856, 599, 976, 631]),
  wordsLine(['ESTADOS', 96, 561, 649, 744, 681], ['unIDOS', 74, 761, 649, 916, 716]),
  wordsLine(['*', 49, 803, 720, 806, 723], ['HRRYAN96060101M087', 56, 837, 700, 1361, 736]),
  wordsLine(
    ['»', 85, 616, 726, 621, 780],
    ['HERA960601MASRYNOO', 29, 664, 719, 1184, 790],
    ['ño', 71, 1267, 769, 1279, 786],
    ['be', 44, 1334, 774, 1337, 777],
    ['REGISTRO', 91, 1360, 767, 1444, 780],
    ['2020', 94, 1510, 756, 1617, 790],
    ['00', 94, 1634, 754, 1687, 790],
  ),
  wordsLine(['ue', 30, 560, 776, 620, 896], ['reo', 12, 669, 770, 856, 909], ['€', 50, 911, 860, 957, 896]),
  wordsLine(['>', 51, 101, 921, 494, 1016], ['21', 94, 551, 977, 601, 1011], ['03', 49, 764, 953, 871, 1013], ['2022-2032', 86, 980, 951, 1243, 1013]),
  wordsLine(['MUESTRA', 96, 34, 1199, 211, 1229]),
  wordsLine(['E', 39, 1723, 1001, 1756, 1077]),
);

describe('model recognition by the header', () => {
  it('takes the model whose own header word is read when few labels are (the credential issued abroad)', () => {
    const front = readFrontByLabels(blurredAbroad, W, H);
    expect(front.model).toBe('desde el extranjero');
    // The next column's words ('EX' of SEXO / SEX, the sex letter) are not part of the names. (HERRERA, whose
    // box rises above where the single fitted label puts NOMBRE, is left to the crop read at full size.)
    expect(front.values.names?.lines).toEqual(['REYES', 'ANA SOFIA']);
    expect(front.values.address?.lines.slice(0, 2)).toEqual(['4112 MAPLE DR APT 4', 'HOUSTON, TX 56109']);
  });

  it('reads the header word with a letter misread, and only in the header', () => {
    const misread = page(...blurredAbroad.lines.map((l) => (l.text.includes('EXTRANJERO') ? line(260, 173, 'CREDENCIAL PARA VOTAR DESDE EL EXTRANJFRO', 36) : l)));
    expect(headerShows(misread, 'EXTRANJERO', H)).toBe(true);
    const low = page(...blurredAbroad.lines.map((l) => (l.text.includes('EXTRANJERO') ? line(260, 1100, l.text, 36) : l)));
    expect(headerShows(low, 'EXTRANJERO', H)).toBe(false);
    expect(headerShows(blurredAbroad, 'FEDERAL', H)).toBe(false);
  });
});

describe('label location', () => {
  it('finds labels despite misreads, merged words and their English twins', () => {
    const read = page(
      line(100, 100, 'NOMBRF'),
      line(100, 200, 'CLAVE DE ELECTQR'),
      line(100, 300, 'AÑODEREGISTRO 2020 00'),
      line(100, 400, 'cuR?P'),
      line(100, 500, 'ADDRESS'),
      line(100, 600, '+50@0 DE@0 REGISTRO'),
    );
    const found = findLabels(read, INE_LABELS);
    expect([...found.keys()].sort()).toEqual(['CLAVE', 'CURP', 'DOMICILIO', 'NOMBRE', 'REGISTRO'].sort());
    expect(found.get('DOMICILIO')!.form).toBe('ADDRESS');
    expect(found.get('REGISTRO')!.box.y0).toBe(300);
  });

  it('does not take a word of a value for a label when the other labels disagree on the layout', () => {
    const front = readFrontByLabels(abroad, W, H);
    expect(front.labelsRead).toContain('ESTADO');
    expect(front.values.address?.lines).toEqual(['1813 OAK AVE APT 22', 'LOS ANGELES, CA 64812', 'ESTADOS UNIDOS']);
  });
});

describe('value assignment', () => {
  const front = readFrontByLabels(abroad, W, H);

  it('recognises the model by its labels', () => {
    expect(front.model).toBe('desde el extranjero');
    expect(front.printed).not.toContain('seccion');
  });

  it('reads each value where its label says: right of it, or under it when stacked', () => {
    expect(front.values.names?.lines).toEqual(['GOMEZ', 'PEREZ', 'MARIA FERNANDA']);
    expect(front.values.fechaNacimiento?.text).toBe('15/03/1985');
    expect(front.values.sexo?.text).toBe('M');
    expect(front.values.claveElector?.text).toBe('GMPRMR85031514M300');
    expect(front.values.curp?.text).toBe('GOPM850315MJCMRR09');
    expect(front.values.registro?.text).toBe('2019 03');
    expect(front.values.lugarNacimiento?.text).toBe('JALISCO');
    expect(front.values.estado?.text).toBe('14');
    expect(front.values.emision?.text).toBe('01');
    expect(front.values.vigencia?.text).toBe('2019 2029'); // the dash carries no letter or digit
    expect(front.values.seccion).toBeUndefined();
  });

  it('places a label the OCR missed by the layout fitted to the labels it read', () => {
    const withoutCurpLabel = page(...abroad.lines.map((l) => (l.text.startsWith('cuR?P') ? line(575, 746, 'c@20 GOPM850315MJCMRR09 AÑO DE REGISTRO 2019 03', 26) : l)));
    const read = readFrontByLabels(withoutCurpLabel, W, H);
    expect(read.labelsRead).not.toContain('CURP');
    expect(read.values.curp?.text).toBe('GOPM850315MJCMRR09');
    expect(read.values.curp?.labelRead).toBe(false);
  });
});

/**
 * The generator's older card as the page read saw it (whole-journey, 'INES HERNANDEZ LOPEZ' read 'INEC HERN
 * LOPEZ'): a dash read beside NOMBRE joined the SEXO label, whose box then began at x 724, inside the names.
 */
const olderCard = page(
  line(273, 67, 'MÉXICO', 50),
  {
    ...line(579, 277, 'NOMBRE', 23),
    words: [...line(579, 277, 'NOMBRE', 23).words, { text: '—', confidence: 56, box: { x0: 724, y0: 309, x1: 733, y1: 316 }, symbols: [] }, ...line(1611, 277, 'sexo M', 23).words],
  },
  line(579, 319, 'HERNANDEZ', 52),
  line(579, 374, 'LOPEZ', 36),
  line(579, 421, 'INÉS', 45),
  line(579, 507, 'DOMICILIO', 23),
  line(577, 549, 'CDA PEÑUELAS 2368', 31),
  line(577, 597, 'COL LAS AMÉRICAS 67896', 32),
  line(579, 646, 'MONTERREY, N.L.', 35),
  line(577, 737, 'CLAVE DE ELECTOR HRLPIN04073106M778', 23),
  line(577, 804, 'cuRP HELI040731MCMRPNF7 AÑO DE REGISTRO 2022 01', 23),
  line(579, 870, 'FECHA DE NACIMIENTO 31/07/2004 SECCIÓN 2404', 23),
  line(576, 936, 'VIGENCIA 2022 - 2032 EMISIÓN 04', 23),
);

describe('names read whole', () => {
  it('does not stretch a label over a mark read beside it', () => {
    const found = findLabels(olderCard, INE_LABELS);
    expect(found.get('SEXO')!.box.x0).toBe(1611);
    const front = readFrontByLabels(olderCard, W, H);
    expect(front.values.names?.lines).toEqual(['HERNANDEZ', 'LOPEZ', 'INÉS']);
    expect(front.values.sexo?.text).toBe('M');
  });

  it('keeps a word that starts in the column whole, and cuts the crop no shorter than the words read', () => {
    // SEXO read a little left of where it is printed: the first surname runs past it.
    const shifted = page(
      ...olderCard.lines.map((l) =>
        l.words.some((w) => w.text === 'sexo') ? page(line(579, 277, 'NOMBRE', 23), line(850, 277, 'sexo M', 23)).lines.reduce((a, b) => ({ ...a, words: [...a.words, ...b.words] })) : l,
      ),
    );
    const front = readFrontByLabels(shifted, W, H);
    expect(front.values.names?.lines[0]).toBe('HERNANDEZ');
    const names = front.regions.names!;
    const hernandez = olderCard.lines[2]!.words[0]!.box;
    expect(names.x1 * W).toBeGreaterThan(hernandez.x1);
    // The crop starts on the label's row: an accent or a tilde over the first line is not cut off...
    expect(names.y0 * H).toBeLessThanOrEqual(277);
    // ...and ends before the next label.
    expect(names.y1 * H).toBeLessThan(507);
  });
});

describe('marks read by one reading only', () => {
  const card: RawImage = { data: Buffer.alloc(W * H, 230), width: W, height: H, channels: 1 };
  // The second surname changed (its initial kept, so the card's CURP still agrees with the names).
  const withName = (surname: string) => page(...olderCard.lines.map((l) => (l.text === 'LOPEZ' ? line(579, 374, surname, 36) : l)));
  const crop = (...texts: string[]): RawRead => page(...texts.map((t, i) => line(10, 10 + 60 * i, t, 40)));
  const parse = (pageRead: RawRead, names: RawRead) => ineFront.parse({ reads: { names }, alternates: {}, card, mrz: null, today: new Date('2026-11-26T12:00:00Z'), page: pageRead }).ocrData;

  it('keeps the Ñ whichever of the page read and the crop saw it, and adds none that neither saw', () => {
    expect(parse(withName('LIÑAN'), crop('NOMBRE', 'HERNANDEZ', 'LINAN', 'INÉS')).apellidoMaterno).toBe('LIÑAN');
    expect(parse(withName('LINAN'), crop('NOMBRE', 'HERNANDEZ', 'LIÑAN', 'INÉS')).apellidoMaterno).toBe('LIÑAN');
    expect(parse(withName('LINAN'), crop('NOMBRE', 'HERNANDEZ', 'LINAN', 'INÉS')).apellidoMaterno).toBe('LINAN');
  });

  it("leaves the names empty when the sound CURP's letters contradict them in two places (lines read from something else)", () => {
    const read = ineFront.parse({
      reads: { names: crop('NOMBRE', 'IÑIGUEZ', 'LOPEZ', 'INÉS') },
      alternates: {},
      card,
      mrz: null,
      today: new Date('2026-11-26T12:00:00Z'),
      page: page(...olderCard.lines.map((l) => (l.text === 'HERNANDEZ' ? line(579, 319, 'IÑIGUEZ', 52) : l))),
    });
    // HELI… is the card's CURP; IÑIGUEZ LOPEZ INÉS gives IILI.
    expect(read.ocrData).toMatchObject({ apellidoPaterno: '', apellidoMaterno: '', nombres: '', nombreCompleto: '', curp: 'HELI040731MCMRPNF7' });
    expect(read.warnings).toEqual(expect.arrayContaining(['names_curp_mismatch', 'names_unreadable']));
  });
});

describe('label words and printed letters', () => {
  it('never lets a label or header word pass as a value', () => {
    for (const word of ['NAME', 'ADDRESS', 'NOMBRE', 'NOMBRF', 'DOMICILIO', 'EXTRANJERO', 'DESDE', 'SEX', 'OF']) {
      expect(isLabelWord(word), word).toBe(true);
    }
    for (const word of ['GOMEZ', 'ESTADOS', 'ESTRADA', 'HECTOR', 'NOEMI', 'DE', 'LA', 'ANA']) {
      expect(isLabelWord(word), word).toBe(false);
    }
  });

  it('returns the name as printed (GOMEZ is not re-accented) and keeps label words out of it', () => {
    const card: RawImage = { data: Buffer.alloc(W * H, 230), width: W, height: H, channels: 1 };
    const parsed = ineFront.parse({ reads: {}, alternates: {}, card, mrz: null, today: new Date('2026-11-26T12:00:00Z'), page: abroad });
    expect(parsed.ocrData).toMatchObject({
      apellidoPaterno: 'GOMEZ',
      apellidoMaterno: 'PEREZ',
      nombres: 'MARIA FERNANDA',
      nombreCompleto: 'MARIA FERNANDA GOMEZ PEREZ',
      fechaNacimiento: '15/03/1985',
      sexo: 'M',
      claveElector: 'GMPRMR85031514M300',
      anioRegistro: '2019',
      numeroRegistro: '03',
      emision: '01',
      vigencia: '2029',
      seccion: '',
      // A foreign address is left for the person to type.
      calle: '',
      colonia: '',
      cp: '',
    });
    expect(parsed.extra).toMatchObject({ modeloIne: 'desde el extranjero', lugarNacimiento: 'JALISCO', estadoClave: '14' });
    expect(parsed.warnings).not.toContain('seccion_unreadable');
    expect(parsed.confidence?.seccion).toBe(0);
    expect(parsed.confidence?.apellidoPaterno).toBeGreaterThan(0.5);
  });

  it('reports a CURP that fails its check digit as read, with the failure flagged', () => {
    const card: RawImage = { data: Buffer.alloc(W * H, 230), width: W, height: H, channels: 1 };
    const wrongDigit = page(...abroad.lines.map((l) => (l.text.startsWith('cuR?P') ? line(575, 746, 'CURP GOPM850315MJCMRR05 AÑO DE REGISTRO 2019 03', 26) : l)));
    const parsed = ineFront.parse({ reads: {}, alternates: {}, card, mrz: null, today: new Date('2026-11-26T12:00:00Z'), page: wrongDigit });
    expect(parsed.ocrData.curp).toBe('GOPM850315MJCMRR05');
    expect(parsed.warnings).toContain('curp_check_digit_failed');
  });
});

describe('an unreadable INE front', () => {
  const result = (ocrData: Record<string, string | boolean>, documentType: OcrResult['documentType'] = 'INE'): OcrResult => ({
    documentType,
    side: 'front',
    ocrData,
    geometry: { cardFound: true, rotationDeg: 0, cropped: true },
    warnings: [],
    timingsMs: {},
  });

  it('is refused (unreadable text), not tolerated, when the name or both CURP and clave are missing', () => {
    expect(judgeRead(result({ nombreCompleto: '', curp: 'GOPM850315MJCMRR09' }), { side: 'front', toleranceUsed: false })).toMatchObject({ kind: 'rejected', reason: 'incomplete' });
    expect(judgeRead(result({ nombreCompleto: 'MARIA FERNANDA GOMEZ PEREZ', curp: '', claveElector: '' }), { side: 'front', toleranceUsed: false })).toMatchObject({
      kind: 'rejected',
      reason: 'incomplete',
    });
  });

  it('is still tolerated once when the name and the clave were read but the CURP was not', () => {
    expect(judgeRead(result({ nombreCompleto: 'MARIA FERNANDA GOMEZ PEREZ', curp: '', claveElector: 'GMPRMR85031514M300' }), { side: 'front', toleranceUsed: false })).toMatchObject({
      kind: 'tolerated',
    });
  });

  it('leaves other documents to the spec tolerance (an FMM has no CURP)', () => {
    expect(judgeRead(result({ nombreCompleto: 'ROBERT ALAN JOHNSON' }, 'FMM'), { side: 'front', toleranceUsed: false })).toMatchObject({ kind: 'tolerated' });
  });
});

describe('card finding without a card edge', () => {
  /** A card filling the frame (bright everywhere) with a block of print in the middle. */
  function filled(width: number, height: number, block: { x0: number; y0: number; x1: number; y1: number }) {
    const data = new Uint8Array(width * height).fill(225);
    for (let y = block.y0; y < block.y1; y += 12) {
      for (let x = block.x0; x < block.x1; x++) {
        if ((x >> 3) % 3 === 0) continue;
        for (let dy = 0; dy < 5; dy++) data[(y + dy) * width + x] = 40;
      }
    }
    return { data, width, height };
  }

  it('falls back to the extent of the print (plus a margin) rather than the whole frame', () => {
    const found = textBlockExtent(filled(640, 480, { x0: 160, y0: 120, x1: 480, y1: 330 }));
    expect(found).not.toBeNull();
    const [[x0, y0], , [x1, y1]] = found!.quad;
    expect(x0).toBeGreaterThan(130);
    expect(x0).toBeLessThan(160);
    expect(y0).toBeGreaterThan(95);
    expect(x1).toBeGreaterThan(480);
    expect(x1).toBeLessThan(510);
    expect(y1).toBeLessThan(360);
  });

  it('finds nothing to crop when the print covers the frame or there is none', () => {
    expect(textBlockExtent(filled(640, 480, { x0: 5, y0: 5, x1: 635, y1: 470 }))).toBeNull();
    expect(textBlockExtent({ data: new Uint8Array(640 * 480).fill(225), width: 640, height: 480 })).toBeNull();
  });
});

describe('values that fail their own rule are left empty', () => {
  const card: RawImage = { data: Buffer.alloc(W * H, 230), width: W, height: H, channels: 1 };
  const replaced = (from: string, to: RawRead['lines'][number]) => page(...olderCard.lines.map((l) => (l.text === from ? to : l)));
  const parse = (pageRead: RawRead) => ineFront.parse({ reads: {}, alternates: {}, card, mrz: null, today: new Date('2026-11-26T12:00:00Z'), page: pageRead });

  it('reads the validity at the end of a ten-year range, and none from a range whose ends are not ten years apart', () => {
    expect(parse(olderCard).ocrData.vigencia).toBe('2032');
    const misread = parse(replaced('VIGENCIA 2022 - 2032 EMISIÓN 04', line(576, 936, 'VIGENCIA 2022 - 2082 EMISIÓN 04', 23)));
    expect(misread.ocrData.vigencia).toBe('');
    expect(misread.warnings).toContain('vigencia_unreadable');
  });

  it('returns no clave de elector short of its 18 characters', () => {
    const read = parse(replaced('CLAVE DE ELECTOR HRLPIN04073106M778', line(577, 737, 'CLAVE DE ELECTOR HRLPIN04073106M', 23)));
    expect(read.ocrData.claveElector).toBe('');
    expect(read.warnings).toContain('clave_elector_incomplete');
  });
});
