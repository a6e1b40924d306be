/** Spec §9: country prefix 52, 51 in the DNI variant; digits of a mobile number there. */
export function phoneRules(dniVariant: boolean): { areaCode: '52' | '51'; digits: number } {
  return dniVariant ? { areaCode: '51', digits: 9 } : { areaCode: '52', digits: 10 };
}

/** Only digits are kept while typing (the spec asks only for a non-empty value). */
export function digitsOnly(value: string, max: number): string {
  return value.replace(/\D/g, '').slice(0, max);
}

/** '+52 55 1234 5678' for 10 digits; other lengths in groups of three. */
export function formatPhone(areaCode: string, number: string): string {
  const groups = number.length === 10 ? [number.slice(0, 2), number.slice(2, 6), number.slice(6)] : (number.match(/.{1,3}/g) ?? [number]);
  return `+${areaCode} ${groups.join(' ')}`;
}
