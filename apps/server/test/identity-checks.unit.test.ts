import { computeClaveElector, computeCurp, createMexicanIdentity, rng, type CurpInput } from '@kyc/fixtures';
import { describe, expect, it } from 'vitest';
import { curpRules, idHolderFrom, normaliseCurp, overallOutcome, plainName, registryRules, type IdHolder } from '../src/features/identity-checks/curp-check.js';
import { claveElectorProblem, icaoCheckDigit, ineRules, listRules } from '../src/features/identity-checks/ine-check.js';

const pad = (n: number) => String(n).padStart(2, '0');

function person(overrides: Partial<CurpInput> = {}): { curp: string; holder: IdHolder } {
  const input: CurpInput = {
    apellidoPaterno: 'HERNÁNDEZ',
    apellidoMaterno: 'LÓPEZ',
    nombres: 'GUADALUPE',
    fechaNacimiento: { y: 1990, m: 2, d: 15 },
    sexo: 'M',
    estadoCurp: 'DF',
    homoclave: '0',
    ...overrides,
  };
  const curp = computeCurp(input);
  const { y, m, d } = input.fechaNacimiento;
  const clave = computeClaveElector({ ...input, estadoNum: input.estadoCurp === 'JC' ? 14 : 9 }, '123');
  return {
    curp,
    holder: {
      nombres: input.nombres,
      apellidoPaterno: input.apellidoPaterno,
      apellidoMaterno: input.apellidoMaterno,
      fechaNacimiento: `${pad(d)}/${pad(m)}/${y}`,
      sexo: input.sexo,
      claveElector: clave,
    },
  };
}

const failed = (checks: { rule: string; passed: boolean }[]) => checks.filter((c) => !c.passed).map((c) => c.rule);

describe('CURP rules and consistency with the ID read', () => {
  it('accepts 200 generated identities whose CURP follows from their ID data', () => {
    for (let i = 0; i < 200; i++) {
      const who = createMexicanIdentity(rng('curp-unit', String(i)), { referenceDate: { y: 2026, m: 11, d: 26 } });
      const holder: IdHolder = {
        nombres: who.nombres,
        apellidoPaterno: who.apellidoPaterno,
        apellidoMaterno: who.apellidoMaterno,
        fechaNacimiento: `${pad(who.fechaNacimiento.d)}/${pad(who.fechaNacimiento.m)}/${who.fechaNacimiento.y}`,
        sexo: who.sexo,
        claveElector: who.ine.claveElector,
      };
      const result = curpRules(who.curp, holder);
      expect(failed(result.checks), `${who.curp} ${who.nombres} ${who.apellidoPaterno} ${who.apellidoMaterno}`).toEqual([]);
      expect(result.checks.map((c) => c.rule)).toEqual(['estructura', 'digito_verificador', 'iniciales_nombre', 'consonantes_nombre', 'fecha_nacimiento', 'sexo', 'entidad_nacimiento']);
      expect(overallOutcome(result.checks, result.consistencyChecked)).toBe('passed');
    }
  });

  it('applies the inconvenient-word, Ñ, MARÍA/JOSÉ and particle rules', () => {
    // P-E-D-O would be an inconvenient word: RENAPO writes PXDO.
    const pedo = person({ apellidoPaterno: 'PÉREZ', apellidoMaterno: 'DOMÍNGUEZ', nombres: 'OSCAR', sexo: 'H' });
    expect(pedo.curp.slice(0, 4)).toBe('PXDO');
    expect(failed(curpRules(pedo.curp, pedo.holder).checks)).toEqual([]);
    // A CURP with the raw word is inconsistent with the names.
    const raw = `PEDO${pedo.curp.slice(4)}`;
    expect(curpRules(raw, pedo.holder).checks.find((c) => c.rule === 'iniciales_nombre')?.passed).toBe(false);

    const enye = person({ apellidoPaterno: 'ÑAUPARI', apellidoMaterno: 'NÚÑEZ', nombres: 'MARÍA JOSÉ' });
    expect(enye.curp.slice(0, 4)).toBe('XANJ');
    expect(enye.curp.slice(13, 16)).toBe('PXS');
    expect(failed(curpRules(enye.curp, enye.holder).checks)).toEqual([]);

    const particles = person({ apellidoPaterno: 'DE LA TORRE', apellidoMaterno: 'DEL VALLE', nombres: 'JOSÉ LUIS', sexo: 'H' });
    expect(particles.curp.slice(0, 4)).toBe('TOVL');
    expect(failed(curpRules(particles.curp, particles.holder).checks)).toEqual([]);

    const single = person({ apellidoMaterno: '', nombres: 'JOSÉ', sexo: 'H' });
    expect(single.curp.slice(0, 4)).toBe('HEXJ');
    expect(failed(curpRules(single.curp, single.holder).checks)).toEqual([]);
  });

  it('names each inconsistency with the ID read', () => {
    const { curp, holder } = person();
    expect(failed(curpRules(curp, { ...holder, nombres: 'ROSA' }).checks)).toEqual(['iniciales_nombre', 'consonantes_nombre']);
    expect(failed(curpRules(curp, { ...holder, fechaNacimiento: '16/02/1990' }).checks)).toEqual(['fecha_nacimiento']);
    expect(failed(curpRules(curp, { ...holder, sexo: 'H' }).checks)).toEqual(['sexo']);
    const jalisco = person({ estadoCurp: 'JC' });
    expect(failed(curpRules(curp, { ...holder, claveElector: jalisco.holder.claveElector }).checks)).toEqual(['entidad_nacimiento']);
  });

  it('checks the structure and the check digit on their own', () => {
    const { curp } = person();
    const wrongDigit = curp.slice(0, 17) + String((Number(curp[17]) + 1) % 10);
    const result = curpRules(wrongDigit, undefined);
    expect(failed(result.checks)).toEqual(['digito_verificador']);
    expect(result.consistencyChecked).toBe(false);
    expect(failed(curpRules(curp.slice(0, 16), undefined).checks)).toEqual(['estructura']);
    expect(failed(curpRules(`${curp.slice(0, 11)}ZZ${curp.slice(13)}`, undefined).checks)).toContain('estructura');
    // Without an ID read a sound CURP is not confirmed by anything.
    const alone = curpRules(curp, undefined);
    expect(failed(alone.checks)).toEqual([]);
    expect(overallOutcome(alone.checks, alone.consistencyChecked)).toBe('not_checked');
    expect(overallOutcome(result.checks, false)).toBe('failed');
  });

  it('reads the holder from an evidence payload and normalises a typed CURP', () => {
    expect(idHolderFrom({ nombres: ' ANA ', sexo: 'M', curp: 1, fechaNacimiento: '' })).toEqual({
      nombres: 'ANA',
      apellidoPaterno: undefined,
      apellidoMaterno: undefined,
      fechaNacimiento: undefined,
      sexo: 'M',
      claveElector: undefined,
    });
    expect(normaliseCurp(' helg900215mdfrpd09 ')).toBe('HELG900215MDFRPD09');
    expect(plainName('María  José Núñez-Peña')).toBe('MARIA JOSE NUÑEZ PEÑA');
  });

  it('reads what a RENAPO registry answers', () => {
    const { curp, holder } = person();
    expect(failed(registryRules({ found: false }, curp, holder))).toEqual(['renapo_registro']);
    expect(failed(registryRules({ found: true, curpStatus: 'BD' }, curp, holder))).toEqual(['renapo_registro']);
    const same = registryRules({ found: true, curpStatus: 'AN', names: 'Guadalupe', firstSurname: 'Hernandez', secondSurname: 'Lopez', birthDate: '1990-02-15', sex: 'M' }, curp, holder);
    expect(same.map((c) => [c.rule, c.passed])).toEqual([
      ['renapo_registro', true],
      ['renapo_nombre', true],
      ['renapo_fecha_nacimiento', true],
      ['renapo_sexo', true],
    ]);
    expect(failed(registryRules({ found: true, names: 'ROSA', firstSurname: 'HERNANDEZ' }, curp, holder))).toEqual(['renapo_nombre']);
  });
});

describe('INE credential rules', () => {
  const who = createMexicanIdentity(rng('ine-unit', '1'), { referenceDate: { y: 2026, m: 11, d: 26 } });
  const line1 = `IDMEX${who.ine.cic}${icaoCheckDigit(who.ine.cic)}<<${who.ine.seccion}${who.ine.ciudadano}`;
  const back = { mrzLines: [line1, '<'.repeat(30), '<'.repeat(30)], mrzValid: true };
  const front = {
    claveElector: who.ine.claveElector,
    emision: who.ine.emision,
    seccion: who.ine.seccion,
    fechaNacimiento: `${pad(who.fechaNacimiento.d)}/${pad(who.fechaNacimiento.m)}/${who.fechaNacimiento.y}`,
    sexo: who.sexo,
  };

  it('computes the ICAO check digit (ICAO 9303 example)', () => {
    expect(icaoCheckDigit('D23145890')).toBe('7');
    expect(icaoCheckDigit('L898902C<')).toBe('3');
    expect(icaoCheckDigit('ab')).toBeNull();
  });

  it('validates the clave de elector layout', () => {
    expect(claveElectorProblem(who.ine.claveElector)).toBeNull();
    expect(claveElectorProblem('ABCDEF901332')).toMatch(/characters/);
    expect(claveElectorProblem('HRLPGD90021509M12')).toMatch(/characters/);
    expect(claveElectorProblem('HRLPGD901315' + '09M123')).toMatch(/date/);
    expect(claveElectorProblem('HRLPGD900215' + '45M123')).toMatch(/state/);
    expect(claveElectorProblem('HRLPGD900215' + '87H123')).toBeNull();
  });

  it('checks a CIC against the back MRZ', () => {
    const ok = ineRules({ cic: who.ine.cic }, back, front);
    expect(failed(ok.checks)).toEqual([]);
    expect(ok.checks.map((c) => c.rule)).toEqual(['formato_cic', 'cic_mrz', 'cic_digito_verificador', 'mrz_digitos_verificadores']);
    expect(ok.consistencyChecked).toBe(true);
    const other = String((Number(who.ine.cic) + 1) % 1e9).padStart(9, '0');
    expect(failed(ineRules({ cic: other }, back, front).checks)).toEqual(['cic_mrz', 'cic_digito_verificador']);
    expect(failed(ineRules({ cic: '12345' }, back, front).checks)).toEqual(['formato_cic']);
    expect(failed(ineRules({ cic: who.ine.cic }, { ...back, mrzValid: false }, front).checks)).toEqual(['mrz_digitos_verificadores']);
    const alone = ineRules({ cic: who.ine.cic }, undefined, undefined);
    expect(alone.consistencyChecked).toBe(false);
    expect(overallOutcome(alone.checks, alone.consistencyChecked)).toBe('not_checked');
  });

  it('checks OCR, clave de elector and emission against the MRZ and the front', () => {
    const data = { ocr: who.ine.ocr, claveElector: who.ine.claveElector, numeroEmisionCredencial: who.ine.emision };
    const ok = ineRules(data, back, front);
    expect(failed(ok.checks)).toEqual([]);
    expect(ok.checks.map((c) => c.rule)).toEqual([
      'formato_ocr',
      'formato_clave_elector',
      'formato_emision',
      'ocr_mrz',
      'seccion_frente',
      'clave_elector_frente',
      'emision_frente',
      'clave_fecha_nacimiento',
      'clave_sexo',
      'mrz_digitos_verificadores',
    ]);
    const otherEmision = who.ine.emision === '01' ? '02' : '01';
    expect(failed(ineRules({ ...data, numeroEmisionCredencial: otherEmision }, back, front).checks)).toEqual(['emision_frente']);
    expect(failed(ineRules({ ...data, ocr: `9999${who.ine.ciudadano}` }, back, front).checks)).toEqual(['ocr_mrz', 'seccion_frente']);
    expect(failed(ineRules({ ...data, claveElector: 'ABC' }, back, front).checks)).toEqual(['formato_clave_elector']);
    const otherSex = { ...front, sexo: who.sexo === 'H' ? 'M' : 'H' };
    expect(failed(ineRules(data, back, otherSex).checks)).toEqual(['clave_sexo']);
  });

  it('reads what the INE list answers', () => {
    expect(failed(listRules({ found: false }))).toEqual(['lista_nominal']);
    expect(failed(listRules({ found: true, current: false }))).toEqual(['credencial_vigente']);
    expect(failed(listRules({ found: true, current: true }))).toEqual([]);
  });
});

describe('RENAPO_* and INE_* configuration', () => {
  it('configures a gateway only with its URL, validated at start', async () => {
    const { loadConfig } = await import('../src/config.js');
    expect(loadConfig({}).identityGateways).toEqual({ renapo: undefined, ine: undefined });
    expect(loadConfig({ RENAPO_URL: 'https://renapo.example.mx/curp', RENAPO_TOKEN: 't' }).identityGateways).toEqual({
      renapo: { url: 'https://renapo.example.mx/curp', token: 't', timeoutMs: 5000 },
      ine: undefined,
    });
    expect(loadConfig({ INE_URL: 'http://10.0.0.5/ine', INE_TIMEOUT_MS: '800' }).identityGateways.ine).toEqual({ url: 'http://10.0.0.5/ine', token: undefined, timeoutMs: 800 });
    expect(() => loadConfig({ RENAPO_URL: 'ftp://x' })).toThrow(/RENAPO_URL must be an http/);
    expect(() => loadConfig({ INE_TIMEOUT_MS: '800' })).toThrow(/INE_TIMEOUT_MS set without INE_URL/);
    expect(() => loadConfig({ RENAPO_URL: 'http://a', RENAPO_TIMEOUT_MS: '5' })).toThrow(/RENAPO_TIMEOUT_MS must be an integer/);
  });
});
