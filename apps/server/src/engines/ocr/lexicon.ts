/**
 * Accents and Ñ on names and places. The LSTM model drops or misplaces diacritics on small, condensed
 * uppercase print ('YANEZ', 'YAÑEZ' for YÁÑEZ). A word whose plain form (no accents, Ñ as N) matches an
 * entry here is written the way that entry is spelt; other words are left as read. Entries are common
 * Mexican and Peruvian given names, surnames and place names whose spelling with the mark is the usual
 * one; words that are commonly written both ways are not listed.
 */
const WORDS = `
ÁLVAREZ ÁLVARO ÁNGEL ÁNGELES ÁVALOS ÁVILA ACUÑA AGÜERO AJÚ ALARCÓN AMÉRICA AMÉRICAS ANDRÉS ANDREÍNA
ARAGÓN ARMENDÁRIZ ASUNCIÓN BAHÍA BAÑUELOS BELTRÁN BENÍTEZ BERMÚDEZ BOLAÑOS BRICEÑO BRISEÑO
CALDERÓN CANCÚN CÁRDENAS CASTAÑEDA CASTAÑO CASTAÑÓN CATALÁN CÉSAR CHÁVEZ COLÓN CONCEPCIÓN COYOACÁN
CUAUHTÉMOC CULIACÁN DÁVILA DÍAZ DOMÍNGUEZ DUEÑAS EFRAÍN ELÍAS ENRÍQUEZ ESPÍNDOLA ESTEFANÍA ESTÉVEZ FÉLIX
FERNÁNDEZ FÚNEZ GALVÁN GARCÍA GÁLVEZ GÓMEZ GONZÁLEZ GUZMÁN GUTIÉRREZ HÉCTOR HERNÁNDEZ HÉROES HUAMÁN HUÁSCAR
IBÁÑEZ INÉS INTERNACIÓN IÑAKI IÑIGUEZ IÑIGO JESÚS JIMÉNEZ JOAQUÍN JOSÉ JOSUÉ JUÁREZ JULIÁN JUNÍN
LÁZARO LEÓN LONDOÑO LÓPEZ LUCÍA MÁRQUEZ MARÍA MARTÍN MARTÍNEZ MATÍAS MAZATLÁN MEJÍA MÉNDEZ MÉRIDA MÉXICO MICHOACÁN
MÓNICA MONTAÑO MONTÚFAR MUÑIZ MUÑOZ NEZAHUALCÓYOTL NICOLÁS NIÑOS NOÉ NOEMÍ NÚÑEZ NUÑO OBREGÓN OCAÑA
OLIVÁREZ ORDÓÑEZ OTHÓN PÁEZ PATIÑO PEÑA PEÑALOZA PEÑUELA PEÑUELAS PÉREZ PERÚ POTOSÍ QUERÉTARO QUIÑONES
QUIÑÓNEZ RAMÍREZ RAMÓN RAÚL RENÉ REVOLUCIÓN RÍO RÍOS ROCÍO RODRÍGUEZ RONDÓN RUBÉN SÁENZ SÁNCHEZ SEBASTIÁN
SIMÓN SOFÍA SUÁREZ TEHUACÁN TOMÁS TORREÓN URDIÑOLA UREÑA ÚRSULA VALDÉS VÁSQUEZ VÁZQUEZ VÉLEZ VERÓNICA
YÁÑEZ YUCATÁN ZOÉ ZÚÑIGA ÑAUPARI
`;

export function plainForm(word: string): string {
  return word.normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC');
}

const SPELLING = new Map<string, string>(
  WORDS.split(/\s+/).filter(Boolean).map((w) => [plainForm(w), w]),
);

/**
 * The LSTM sometimes emits an accented letter next to the same letter unaccented ('ESTEFANIÍA',
 * 'ZÚÑNÑIGA'): Spanish spelling has no such pair, so the pair is the accented letter once.
 */
function collapseAccentPairs(word: string): string {
  const enye = word.replace(/Ñ+N+Ñ*|N+Ñ+N*|ÑÑ+/g, 'Ñ');
  const pairs = /([AEIOU])([ÁÉÍÓÚ])|([ÁÉÍÓÚ])([AEIOU])/g;
  return enye.replace(pairs, (pair, a?: string, b?: string, c?: string, d?: string) => {
    const [plain, accented] = a && b ? [a, b] : [d!, c!];
    return plainForm(accented) === plain ? accented : pair;
  });
}

/** Each word spelt as the lexicon has it when its plain form is listed; others unchanged. */
export function restoreDiacritics(text: string): string {
  return text.replace(/[A-ZÁÉÍÓÚÜÑ]+/g, (raw) => {
    const word = collapseAccentPairs(raw);
    return SPELLING.get(plainForm(word)) ?? word;
  });
}
