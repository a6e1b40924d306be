/** Spec §5: the INE/OCR and passport forms trim and uppercase all values. */
export function normaliseUpperTrim(value: string): string {
  return value.trim().toUpperCase();
}

/** Spec §5: in the INE/OCR and passport forms the CURP is trimmed to 18 and uppercased. */
export function trimCurp(value: string): string {
  return normaliseUpperTrim(value).slice(0, 18);
}
