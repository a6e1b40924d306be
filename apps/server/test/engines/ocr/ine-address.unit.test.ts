import { describe, expect, it } from 'vitest';
import { addressSlots, trimmedLine, votedAddressLines, votedLine, type AddressReading } from '../../../src/engines/ocr/fields/ine-address.js';
import { parseIneAddress } from '../../../src/engines/ocr/fields/ine-front.js';
import { isPrintedPlace } from '../../../src/engines/ocr/fields/ine-place.js';

/** A reading from lines written 'WORD:confidence WORD:confidence', as the engine's debug listing prints them. */
const reading = (...lines: string[]): AddressReading =>
  lines.map((line) =>
    line.split(' ').map((token) => {
      const at = token.lastIndexOf(':');
      return { text: token.slice(0, at), confidence: Number(token.slice(at + 1)) };
    }),
  );
const words = (line: string) => reading(line)[0]!;
const text = (line: ReturnType<typeof trimmedLine>) => line.map((w) => w.text).join(' ');

describe('the INE address voted from its readings', () => {
  it('takes off the marks read at the block edges, not the street type C', () => {
    expect(text(trimmedLine(words('E:40 CDA:72 PEÑUELAS:91 315:96 INT:96 11:96')))).toBe('CDA PEÑUELAS 315 INT 11');
    expect(text(trimmedLine(words('C:93 ZARAGOZA:96 2711:96')))).toBe('C ZARAGOZA 2711');
    expect(text(trimmedLine(words('OL:93 VILLA:93 DE:96 LAS:96 FLORES:96 58269:95 j:0')))).toBe('OL VILLA DE LAS FLORES 58269');
    expect(text(trimmedLine(words('|:95 GUANAJUATO,:96 GTO.:79 —:56')))).toBe('GUANAJUATO, GTO.');
    expect(text(trimmedLine(words('V:30 URUAPAN,:90 MICH.:90')))).toBe('URUAPAN, MICH.');
  });

  it('takes off a letter after the number read far less surely than the number, not one read as surely', () => {
    // The E/F photos' readings: a mark at the block's right edge read as a letter.
    expect(text(trimmedLine(words('AV:77 JUAREZ:77 645:87 E:46')))).toBe('AV JUAREZ 645');
    expect(text(trimmedLine(words('C:93 ALVARO:93 OBREGON:90 621:96 E:52')))).toBe('C ALVARO OBREGON 621');
    expect(text(trimmedLine(words('C:93 ALVARO:93 OBREGON:90 621:96 A:90')))).toBe('C ALVARO OBREGON 621 A');
    // Doubtful, but so is the number: nothing says which is the mark.
    expect(text(trimmedLine(words('C:60 ALVARO:60 OBREGON:60 621:55 A:50')))).toBe('C ALVARO OBREGON 621 A');
  });

  it('leaves out the clave row cut with the block and anything after the place', () => {
    const slots = addressSlots(reading('NUELAS:55', 'COL:90 CENTRO:96 73773:96', 'PUEBLA,:96 PUE.:95', 'MXRMEF57121216H742:64'));
    expect(slots.place?.map((w) => w.text)).toEqual(['PUEBLA,', 'PUE.']);
    expect(addressSlots(reading('NUELAS:55', 'o:47 58269:96', 'MXRMEF57121216H742:64')).place).toBeUndefined();
  });

  it('does not take a doubtful crop word over the page (ROCCA for AV JUAREZ)', () => {
    const crop = reading('ROCCA:16 645:96', 'COL:96 CENTRO:96 73773:96', 'PUEBLA,:96 PUE.:74');
    const page = reading('AV:90 JUAREZ:90 645:90', 'COL:90 CENTRO:90 73773:90', 'PUEBLA,:90 PUE.:90');
    expect(votedAddressLines([crop, page])).toEqual(['AV JUAREZ 645', 'COL CENTRO 73773', 'PUEBLA, PUE.']);
  });

  it('lets the readings that agree outvote a surer single one (38639 read three times, 33639 once)', () => {
    const crops = [0, 1, 2].map(() => reading('AV:96 INSURGENTES:96 SUR:96 34:96 INT:96 4:96', 'COL:96 EMILIANO:96 ZAPATA:96 38639:91', 'GUANAJUATO,:96 GTO.:84'));
    const page = reading('AV:95 INSURGENTES:95 SUR:95 34:95 INT:95 4:95', 'COL:95 EMILIANO:95 ZAPATA:95 33639:95', 'GUANAJUATO,:95 GTO.:95');
    expect(votedAddressLines([...crops, page])[1]).toBe('COL EMILIANO ZAPATA 38639');
  });

  it('prefers a line with the printed shape: the place with its state over letters read from the guilloche', () => {
    const crop = reading('AV:95 JUAREZ:95 645:96', 'COL:96 CENTRO:96 73773:96', 'DIIERIA:70 DIIE:64');
    const page = reading('AV:64 JUAREZ:64 645:64', 'COL:64 CENTRO:64 73773:64', 'PUEBLA,:64 PUE.:64');
    expect(votedAddressLines([crop, page])[2]).toBe('PUEBLA, PUE.');
  });

  it("takes as the place's printed shape only a state's abbreviation after the comma", () => {
    // A surer reading whose 'state' is no state's abbreviation loses to one that reads one.
    const crop = reading('AV:95 JUAREZ:95 645:96', 'COL:96 CENTRO:96 73773:96', 'PUEBLA,:96 PLE.:90');
    const page = reading('AV:64 JUAREZ:64 645:64', 'COL:64 CENTRO:64 73773:64', 'PUEBLA,:64 PUE,:64');
    expect(votedAddressLines([crop, page])[2]).toBe('PUEBLA, PUE,');
    expect(isPrintedPlace('MANZANILLO, COL.')).toBe(true);
    expect(isPrintedPlace('MANZANILLO, COL,')).toBe(true);
    expect(isPrintedPlace('MANZANILLO, CQL.')).toBe(false);
    expect(isPrintedPlace('VILLA DE LAS FLORES 58269')).toBe(false);
  });

  it('takes COL. as printed on the IFE for the colonia line, so the three readings of the real specimen outvote a misread one', () => {
    // The IFE's own specimen (bench/specimens): one re-read of the crop saw HORELOS 02800.
    const crop = reading('C:58 PITAGORAS:58 1253:96 INT.:95 4:95', 'COL.:95 MORELOS:96 04800:96 e:32', 'CUAJIMALPA:96 DE:96 MORELOS,:95 D.F.:96');
    const misread = reading('CPITAGORAS:58 1253:9 1N7.:9 4:80', 'COL:73 HORELOS:88 02800:79 Y:28', 'CUAJ:90 MAPA:0 DE:96 MORELOS:82 D.F.:72');
    const page = reading('C:86 PITÁGORAS:86 1253:86 INT.:86 4:86', 'COL.:86 MORELOS:86 04800:86', 'CUAJIMALPA:86 DE:86 MORELOS,:86 D.F.:86');
    expect(votedAddressLines([crop, misread, page])).toEqual(['C PITÁGORAS 1253 INT. 4', 'COL. MORELOS 04800', 'CUAJIMALPA DE MORELOS, D.F.']);
  });

  it('keeps the Ñ one of the agreeing readings saw, and a full tie goes to the earlier reading', () => {
    expect(votedLine([words('CDA:70 PENUELAS:70 315:94'), words('CDA:72 PEÑUELAS:91 315:96')])).toBe('CDA PEÑUELAS 315');
    expect(votedLine([words('AV:90 LAZARO:90 1478:90'), words('AV:90 LAZARO:90 14768:90')])).toBe('AV LAZARO 1478');
  });

  it('takes an Ñ from a version that lost the vote, word by word, but no acute accent', () => {
    // An E/F phone photo's three crop readings: the two that kept the tilde broke the number.
    const versions = [words('CDA:33 PEÑUELAS:92 315:21 INT]:27'), words('CDA:72 PENUELAS:72 315:93 INT:92 11:92'), words('CDA:85 PEÑUELAS:92 315171:0')];
    expect(votedLine(versions, (line) => /\d+ INT \d+$/.test(line))).toBe('CDA PEÑUELAS 315 INT 11');
    // The losing version's acute on COL (the word model's own) is not taken.
    expect(votedLine([words('COL:90 CENTRO:96 73773:96'), words('CÓL:87 CENTRO:90 7377:90')], (line) => /\d{5}$/.test(line))).toBe('COL CENTRO 73773');
  });
});

describe('parseIneAddress on voted lines', () => {
  it('returns no street when only the colonia and the place were read', () => {
    expect(parseIneAddress(['COL CENTRO 73773', 'PUEBLA, PUE.'])).toMatchObject({ calle: '', colonia: 'CENTRO', cp: '73773', municipio: 'PUEBLA' });
  });

  it('keeps a letter read after the number with the number, as read, out of the street name', () => {
    expect(parseIneAddress(['C ALVARO OBREGON 621 E', 'COL LOMAS DEL SOL 28724', 'MANZANILLO, COL.'])).toMatchObject({ calle: 'C ALVARO OBREGON', numero: '621 E' });
    expect(parseIneAddress(['C 5 DE MAYO 1O2 B', 'COL CENTRO 27000', 'TORREON, COAH.'])).toMatchObject({ calle: 'C 5 DE MAYO', numero: '102 B' });
  });
});
