import { describe, expect, it } from 'vitest';
import { dniCheckCharacters, dniPeruFront, parseDniNumber } from '../../../src/engines/ocr/fields/dni-peru.js';
import { fmm, lastAuthorisedDay, tickedSex } from '../../../src/engines/ocr/fields/fmm.js';
import { ineBack } from '../../../src/engines/ocr/fields/ine-back.js';
import { emissionPrinted, ineFront, parseIneAddress, registroBesideCurp, registroYearAtEdge, validityYear, withCropAccents, withoutAcutes } from '../../../src/engines/ocr/fields/ine-front.js';
import { passportFront } from '../../../src/engines/ocr/fields/passport.js';
import type { ParseInput } from '../../../src/engines/ocr/fields/spec.js';
import { cleanName, findDate, splitSurnames } from '../../../src/engines/ocr/fields/text.js';
import type { RawImage } from '../../../src/engines/ocr/homography.js';
import { checkMrz } from '../../../src/engines/ocr/mrz-parse.js';
import type { MrzResult } from '../../../src/engines/ocr/mrz.js';
import type { RawRead } from '../../../src/engines/ocr/pool.js';

/** A read as tesseract reports it: lines of words with boxes and confidences ('word@40' sets 40). */
function read(...lines: string[]): RawRead {
  let y = 0;
  return {
    text: lines.join('\n'),
    lines: lines.map((line) => {
      y += 60;
      let x = 0;
      const words = line
        .split(' ')
        .filter(Boolean)
        .map((token) => {
          const [text = '', conf] = token.split('@');
          const box = { x0: x, y0: y, x1: x + text.length * 20, y1: y + 40 };
          x = box.x1 + 20;
          return { text, confidence: conf ? Number(conf) : 90, box, symbols: [] };
        });
      return { text: words.map((w) => w.text).join(' '), confidence: 90, box: { x0: 0, y0: y, x1: x, y1: y + 40 }, words };
    }),
  };
}

const blankCard: RawImage = { data: Buffer.alloc(2000 * 1262, 230), width: 2000, height: 1262, channels: 1 };
const today = new Date('2026-11-26T12:00:00Z');

function input(reads: Record<string, RawRead>, extra: Partial<ParseInput> = {}): ParseInput {
  return { reads, alternates: {}, card: blankCard, mrz: null, today, ...extra };
}

function mrzResult(lines: string[]): MrzResult {
  const check = checkMrz(lines);
  return {
    format: lines.length === 2 ? 'TD3' : 'TD1',
    lines,
    valid: check.valid,
    checkDigits: check.checkDigits,
    fields: check.fields,
    located: true,
    attempts: 1,
  };
}

describe('INE front', () => {
  const reads = {
    names: read('DÍAZ', 'YAÑEZ', 'HECTOR e@20'),
    sexo: read('H'),
    address: read('AV INSURGENTES SUR 138 INT 12', 'COL PROGRESO 33159', 'CHIHUAHUA, CHIH.'),
    claveElector: read('DZYXHC01091208H473'),
    curp: read('DIYHO10912HCHZXCC7'),
    registro: read('2021 00'),
    fechaNacimiento: read('12/09/2001'),
    seccion: read('3447'),
    vigencia: read('2021 - 2031'),
    emision: read('04'),
  };

  it('parses every field of the fixed layout (no page read), letters as read, with repairs and §5 normalisations', () => {
    const parsed = ineFront.parse(input(reads));
    expect(parsed.ocrData).toEqual({
      nombreCompleto: 'HECTOR DÍAZ YAÑEZ',
      nombres: 'HECTOR',
      apellidoPaterno: 'DÍAZ',
      apellidoMaterno: 'YAÑEZ',
      fechaNacimiento: '12/09/2001',
      sexo: 'H',
      curp: 'DIYH010912HCHZXCC7',
      claveElector: 'DZYXHC01091208H473',
      anioRegistro: '2021',
      numeroRegistro: '00',
      seccion: '3447',
      emision: '04',
      vigencia: '2031',
      calle: 'AV INSURGENTES SUR',
      numero: '138 INT 12',
      colonia: 'PROGRESO',
      cp: '33159',
      municipio: 'CHIHUAHUA',
      estado: 'CHIH.',
      identificacionElectoral: true,
      identificacionPasaporte: false,
      identificacionMigratoria: false,
      documentoNacionalPeru: false,
      documentoPermanente: false,
    });
    expect(parsed.warnings).toEqual([]);
  });

  it('takes an unreadable sex from a sound CURP, and flags fields it could not read', () => {
    const parsed = ineFront.parse(input({ ...reads, sexo: read(), emision: read() }));
    expect(parsed.ocrData.sexo).toBe('H');
    expect(parsed.warnings).toEqual(['emision_unreadable']);
  });

  it('takes the sex a sound CURP spells over a misread letter, and the clave de elector with it', () => {
    const parsed = ineFront.parse(input({ ...reads, sexo: read('M') }));
    expect(parsed.ocrData.sexo).toBe('H');
    expect(parsed.ocrData.claveElector).toBe('DZYXHC01091208H473');
  });

  it('does not take a birth date after today or before 1900, and reads the next reading instead', () => {
    const future = ineFront.parse(input({ ...reads, fechaNacimiento: read('02/02/5203') }));
    expect(future.ocrData.fechaNacimiento).toBe('');
    expect(future.warnings).toContain('fechaNacimiento_unreadable');
    const next = ineFront.parse({ ...input({ ...reads, fechaNacimiento: read('02/02/5203') }), alternates: { fechaNacimiento: [read('12/09/2001')] } });
    expect(next.ocrData.fechaNacimiento).toBe('12/09/2001');
  });

  it('reads two name lines as a surname and the given names only when the CURP says there is no second surname', () => {
    const twoLines = { ...reads, names: read('DÍAZ', 'HECTOR') };
    const lost = ineFront.parse(input(twoLines));
    expect(lost.ocrData).toMatchObject({ apellidoPaterno: '', apellidoMaterno: '', nombres: '' });
    expect(lost.warnings).toContain('names_unreadable');
    const single = ineFront.parse(input({ ...twoLines, curp: read('DIXH010912HCHZXXC7'), claveElector: read('DZXXHC01091208H473') }));
    expect(single.ocrData).toMatchObject({ apellidoPaterno: 'DÍAZ', apellidoMaterno: '', nombres: 'HECTOR', curp: 'DIXH010912HCHZXXC7' });
  });

  it("puts back the Ñ both codes spell X (HECTOR DÍAZ YÁÑEZ: the CURP's 15th letter and the clave's 4th)", () => {
    expect(ineFront.parse(input({ ...reads, names: read('DÍAZ', 'YANEZ', 'HECTOR') })).ocrData.apellidoMaterno).toBe('YAÑEZ');
  });

  it("finds the clave anywhere on the page when the one cut at its place is not one (the CURP's row cut for it)", () => {
    const page: RawRead = {
      text: '',
      lines: [read('ave  DZYXHC01091208H473').lines[0]!, read('DIYH010912HCHZXCC7').lines[0]!],
    };
    const parsed = ineFront.parse(input({ ...reads, claveElector: read('DIYH010912HCHZXCC7') }, { page }));
    expect(parsed.ocrData.claveElector).toBe('DZYXHC01091208H473');
  });

  it('uses a later rendition of a field when the first one fails', () => {
    const parsed = ineFront.parse({ ...input({ ...reads, curp: read('DIYH010912HCHZXCC4') }), alternates: { curp: [read('DIYH010912HCHZXCC7')] } });
    expect(parsed.ocrData.curp).toBe('DIYH010912HCHZXCC7');
  });
});

describe('parseIneAddress', () => {
  it('splits street and number, colonia and postal code, municipality and state', () => {
    expect(parseIneAddress(['C 5 DE MAYO 1O2', 'COL NIÑOS HEROES 44100', 'SAN NICOLAS DE LOS GARZA, N.L.'])).toEqual({
      calle: 'C 5 DE MAYO',
      numero: '102',
      colonia: 'NIÑOS HEROES',
      cp: '44100',
      municipio: 'SAN NICOLAS DE LOS GARZA',
      estado: 'N.L.',
    });
  });
  it("never takes the state's abbreviation for the municipality when the comma or the municipality was lost", () => {
    const place = (line: string) => {
      const { municipio, estado } = parseIneAddress(['C ZARAGOZA 12', 'COL CENTRO 27000', line]);
      return { municipio, estado };
    };
    expect(place('TORREON COAH.')).toEqual({ municipio: 'TORREON', estado: 'COAH.' });
    // The dot lost too: the state is left for the person rather than returned unlike its print.
    expect(place('TORREON COAH')).toEqual({ municipio: 'TORREON', estado: '' });
    expect(place('GTO')).toEqual({ municipio: '', estado: '' });
    expect(place('GTO, GTO.')).toEqual({ municipio: '', estado: 'GTO.' });
    // A municipality whose last word is no state's abbreviation stays whole.
    expect(place('SAN PEDRO GARZA GARCIA')).toEqual({ municipio: 'SAN PEDRO GARZA GARCIA', estado: '' });
    // The abbreviation's dot read as a comma: nothing follows a comma at the end of the line.
    expect(place('MANZANILLO, COL,')).toEqual({ municipio: 'MANZANILLO', estado: 'COL.' });
  });
  it("puts back the space a 'C' street lost before its name, and leaves the abbreviations that start with C", () => {
    expect(parseIneAddress(['CZARAGOZA 2711', 'COL SANTA MARIA 25095', 'TORREON, COAH.'])).toMatchObject({ calle: 'C ZARAGOZA', numero: '2711' });
    expect(parseIneAddress(['CDA PEÑUELAS 315 INT 11', 'COL VILLA DE LAS FLORES 58269', 'URUAPAN, MICH.'])).toMatchObject({ calle: 'CDA PEÑUELAS', numero: '315 INT 11' });
    expect(parseIneAddress(['CHOPOS 12', 'COL CENTRO 27000', 'TORREON, COAH.'])).toMatchObject({ calle: 'CHOPOS' });
    expect(parseIneAddress(['CRUZ VERDE 12', 'COL CENTRO 27000', 'TORREON, COAH.'])).toMatchObject({ calle: 'CRUZ VERDE' });
  });
  it("takes 'OL' at the start of the colonia's line for COL whose C was lost", () => {
    expect(parseIneAddress(['CDA PEÑUELAS 315 INT 11', 'OL VILLA DE LAS FLORES 58269', 'URUAPAN, MICH.'])).toMatchObject({ colonia: 'VILLA DE LAS FLORES', cp: '58269' });
  });
  it('takes the line starting COL for the colonia, even when a misread street number has five digits', () => {
    expect(parseIneAddress(['AV LAZARO CARDENAS 14768', 'COL LOMAS DEL SOL 28095', 'MANZANILLO, COL.'])).toEqual({
      calle: 'AV LAZARO CARDENAS',
      numero: '14768',
      colonia: 'LOMAS DEL SOL',
      cp: '28095',
      municipio: 'MANZANILLO',
      estado: 'COL.',
    });
  });
});

describe('withCropAccents: the page read checked against the crop read line by line', () => {
  it("takes the crop's line when the page lost its first letters or words by the photo's edge", () => {
    const page = ['NSURGENTES SUR 34 INT 4', 'ILIANO ZAPATA 38639', 'ATO, GTO.'];
    const crop = ['AV INSURGENTES SUR 34 INT 4', 'COL EMILIANO ZAPATA 38639', 'GUANAJUATO, GTO. —'];
    expect(withCropAccents(page, crop)).toEqual(['AV INSURGENTES SUR 34 INT 4', 'COL EMILIANO ZAPATA 38639', 'GUANAJUATO, GTO.']);
  });
  it("keeps the page's line when the crop only adds the OCR's marks, too much, or another line", () => {
    expect(withCropAccents(['COL CENTRO 73773'], ['yg COL CENTRO 73773'])).toEqual(['COL CENTRO 73773']);
    expect(withCropAccents(['ZAPATA 38639'], ['COL EMILIANO ZAPATA 38639'])).toEqual(['ZAPATA 38639']);
    expect(withCropAccents(['GTO.'], ['GUANAJUATO, GTO.'])).toEqual(['GTO.']);
    expect(withCropAccents(['COL CENTRO 73773'], ['COL CENTRA 73773'])).toEqual(['COL CENTRO 73773']);
  });
  it('takes the accents the crop read on the same letters', () => {
    expect(withCropAccents(['C PENUELAS 12'], ['C PEÑUELAS 12'])).toEqual(['C PEÑUELAS 12']);
  });
});

describe('the E/F models (the IFE specimen)', () => {
  const page = (lines: string[]): RawRead => ({
    text: lines.join('\n'),
    lines: lines.map((text) => ({ text, confidence: 90, box: { x0: 0, y0: 0, x1: 0, y1: 0 }, words: [] })),
  });
  it("finds AÑO DE REGISTRO at the end of the CURP's row when its label was misread", () => {
    const found = registroBesideCurp(page(['CLAVE DE ELECTOR GMVLMR80070501M100', 'de GOVM800705MCLMLRO1 on recisrro 2008 02']));
    expect(found?.slice(1, 3)).toEqual(['2008', '02']);
    expect(registroBesideCurp(page(['CURP GOVM800705MCLMLRO1']))).toBeNull();
    expect(registroBesideCurp(page(['CURP GOVM800705MCLMLRO1 AÑO DE REGISTRO 2008']))).toBeNull();
  });
  it("takes the registration year alone when the photo's edge cut its number, never a year to come", () => {
    const today = new Date('2026-11-26T12:00:00Z');
    expect(registroYearAtEdge('2025', today)?.[1]).toBe('2025');
    expect(registroYearAtEdge('  2 007 ', today)).toBeNull();
    expect(registroYearAtEdge('2007', today)?.[2]).toBeUndefined();
    expect(registroYearAtEdge('2028', today)).toBeNull();
    expect(registroYearAtEdge('2008 0', today)).toBeNull();
  });
  it('reads EMISIÓN as a year on E/F, a year or two digits on the IFE, two digits elsewhere', () => {
    expect(emissionPrinted('EMISIÓN 2019', 'E/F')).toBe('2019');
    expect(emissionPrinted('25', 'E/F')).toBeNull();
    expect(emissionPrinted('2008', 'IFE D/E')).toBe('2008');
    expect(emissionPrinted('03', 'IFE D/E')).toBe('03');
    expect(emissionPrinted('2019 03', 'G/H')).toBe('03');
  });
  it('leaves VIGENCIA empty when it is not ten years after EMISIÓN (a misread digit), or one end of a range', () => {
    expect(validityYear(['2030'], 'E/F', [], '2020')).toBe('2030');
    const warnings: string[] = [];
    expect(validityYear(['2020'], 'E/F', warnings, '2020')).toBe('');
    expect(warnings).toEqual(['vigencia_unreadable']);
    // An emission number that is no year says nothing.
    expect(validityYear(['2020'], 'E/F', [], '74')).toBe('2020');
    expect(validityYear(['2030'], 'desde el extranjero', [])).toBe('');
    expect(validityYear(['2020', '2030'], 'desde el extranjero', [])).toBe('2030');
  });
  it('takes off acute accents the card does not print, keeping the Ñ', () => {
    expect(withoutAcutes('C PITÁGORAS 1253 INT. 4')).toBe('C PITAGORAS 1253 INT. 4');
    expect(withoutAcutes('NÚÑEZ GÜEMES')).toBe('NUÑEZ GUEMES');
  });
});

describe('INE back', () => {
  const lines = ['IDMEX5338842371<<3447342242468', '0109121M3112319MEX<<<<<<<<<<<3', 'DIAZ<YANEZ<<HECTOR<<<<<<<<<<<<'];

  it('derives the ocrBack fields from the MRZ', () => {
    const parsed = ineBack.parse(input({}, { mrz: mrzResult(lines) }));
    expect(parsed.ocrData).toEqual({
      cadena: lines.join('\n'),
      ineVigencia: '2031',
      cicMRZ: '533884237',
      ciudadanoMRZ: '342242468',
      nombreCompletoMRZ: 'HECTOR DIAZ YANEZ',
      seccionMRZ: '3447',
    });
    expect(parsed.warnings).toEqual([]);
  });

  it('cross-checks the MRZ with the front read before', () => {
    const front = { fechaNacimiento: '12/09/2002', sexo: 'H', vigencia: '2031', seccion: '3447', apellidoPaterno: 'DÍAZ', apellidoMaterno: 'YÁÑEZ', nombres: 'HÉCTOR' };
    const parsed = ineBack.parse(input({}, { mrz: mrzResult(lines), front }));
    expect(parsed.warnings).toEqual(['mrz_front_mismatch:fechaNacimiento']);
  });

  it('says when there is no MRZ', () => {
    expect(ineBack.parse(input({})).warnings).toEqual(['mrz_not_found']);
  });
});

describe('passport', () => {
  const lines = ['P<MEXAGUILAR<BRISENO<<JOAQUIN<<<<<<<<<<<<<<<', 'G509395450MEX0112226M2706188<<<<<<<<<<<<<<04'];
  const reads = {
    numero: read('G50939545'),
    apellidos: read('AGUILAR BRISEÑO'),
    nombres: read('JOAQUIN'),
    nacionalidad: read('MEXICANA'),
    fechaNacimiento: read('22 12 2001'),
    curp: read('AUBJO11222HOCGRQK1'),
    sexo: read('M'),
    fechaExpedicion: read('19 06 2021'),
    fechaCaducidad: read('18 06 2027'),
  };

  it('reads the page, takes ocrBack from the MRZ and cross-checks them', () => {
    const parsed = passportFront.parse(input(reads, { mrz: mrzResult(lines) }));
    expect(parsed.ocrData).toMatchObject({
      // Letters as printed and read: no accent is added to JOAQUIN.
      nombreCompleto: 'JOAQUIN AGUILAR BRISEÑO',
      apellidoPaterno: 'AGUILAR',
      apellidoMaterno: 'BRISEÑO',
      nombres: 'JOAQUIN',
      fechaNacimiento: '22/12/2001',
      sexo: 'M',
      curp: 'AUBJ011222HOCGRQK1',
      vigencia: '18/06/2027',
      identificacionPasaporte: true,
    });
    expect(parsed.ocrBack).toEqual({ cadena: lines.join('\n'), nombreCompletoMRZ: 'JOAQUIN AGUILAR BRISENO' });
    expect(parsed.extra).toEqual({ numeroPasaporte: 'G50939545', nacionalidad: 'MEXICANA', fechaExpedicion: '19/06/2021' });
    expect(parsed.warnings).toEqual([]);
  });

  it('prefers the MRZ date its check digit covers, and says the two differ', () => {
    const parsed = passportFront.parse(input({ ...reads, fechaCaducidad: read('18 08 2027') }, { mrz: mrzResult(lines) }));
    expect(parsed.ocrData.vigencia).toBe('18/06/2027');
    expect(parsed.warnings).toEqual(['mrz_front_mismatch:vigencia']);
  });
});

describe('Peru DNI and FMM', () => {
  it('reads the DNI number and its check character', () => {
    expect(dniCheckCharacters('56440282')).toEqual({ digit: '1', letter: 'F' });
    expect(parseDniNumber('DNI 56440282 - 1')).toEqual({ dni: '56440282', check: '1' });
    expect(parseDniNumber('156440282 1')).toEqual({ dni: '56440282', check: '1' });
  });

  it('parses the DNI front', () => {
    const parsed = dniPeruFront.parse(
      input({
        dni: read('56440282 - 1'),
        apellidoPaterno: read('QUISPE'),
        apellidoMaterno: read('CONDORI'),
        nombres: read('WILFREDO'),
        fechaNacimiento: read('02 07 2006'),
        sexo: read('M'),
        fechaEmision: read('31 08 2025'),
        fechaCaducidad: read('31 08 2033'),
      }),
    );
    expect(parsed.ocrData).toMatchObject({
      nombreCompleto: 'WILFREDO QUISPE CONDORI',
      dni: '56440282',
      fechaNacimiento: '02/07/2006',
      sexo: 'M',
      vigencia: '31/08/2033',
      documentoNacionalPeru: true,
    });
    expect(parsed.warnings).toEqual([]);
  });

  it('computes the FMM validity as the last authorised day and reads the ticked box', () => {
    expect(lastAuthorisedDay({ day: 26, month: 11, year: 2026 }, 7)).toBe('02/12/2026');
    const card: RawImage = { ...blankCard, data: Buffer.alloc(2000 * 1294, 235), height: 1294 };
    for (let y = 465; y < 490; y++) for (let x = 910; x < 935; x++) card.data[y * 2000 + x] = 20;
    expect(tickedSex(card)).toBe('M');
    const parsed = fmm.parse(
      input(
        {
          apellidoPaterno: read('JOHNSON'),
          apellidoMaterno: read(),
          nombres: read('ROBERT ALAN'),
          nacionalidad: read('ESTADOUNIDENSE'),
          fechaNacimiento: read('01/02/1971'),
          pasaporte: read('A12345678'),
          paisResidencia: read('ESTADOS UNIDOS'),
          fechaEntrada: read('26/11/2026'),
          dias: read('7'),
          folio: read('4769136557'),
        },
        { card },
      ),
    );
    expect(parsed.ocrData).toMatchObject({
      nombreCompleto: 'ROBERT ALAN JOHNSON',
      apellidoMaterno: '',
      sexo: 'M',
      fechaNacimiento: '01/02/1971',
      vigencia: '02/12/2026',
    });
    expect(parsed.extra.folio).toBe('4769136557');
  });
});

describe('text helpers', () => {
  it('cleans names: noise words dropped, letters kept as printed (no accent added: GOMEZ stays GOMEZ)', () => {
    expect(cleanName('— YANEZ 7')).toBe('YANEZ');
    expect(cleanName('GOMEZ')).toBe('GOMEZ');
    expect(cleanName('GÓMEZ')).toBe('GÓMEZ');
    expect(cleanName('XOCOP')).toBe('XOCOP');
  });

  it('finds dates printed with slashes or spaces, with digit-shaped letters', () => {
    expect(findDate('12/O9/2001')).toEqual({ day: 12, month: 9, year: 2001 });
    expect(findDate('22 12 2001')).toEqual({ day: 22, month: 12, year: 2001 });
    expect(findDate('31/02/2001')).toBeNull();
  });

  it('keeps particles with the surname they belong to', () => {
    expect(splitSurnames('DE LA CRUZ GARCÍA')).toEqual(['DE LA CRUZ', 'GARCÍA']);
    expect(splitSurnames('AGUILAR DEL VALLE')).toEqual(['AGUILAR', 'DEL VALLE']);
    expect(splitSurnames('JOHNSON')).toEqual(['JOHNSON', '']);
  });
});
