/**
 * Spec §5: 'FALSO' in a parameter means disabled or hidden, 'VERDADERO' means required; the spec's
 * other flags use 'true'/'false' ('False' too), so both spellings count, in any case. A value that is
 * neither (unset, '') is neither truthy nor FALSO: the caller applies the parameter's default.
 */
export function isTruthyParam(valor: string | null | undefined): boolean {
  const value = valor?.trim().toUpperCase();
  return value === 'VERDADERO' || value === 'TRUE';
}

export function isFalso(valor: string | null | undefined): boolean {
  const value = valor?.trim().toUpperCase();
  return value === 'FALSO' || value === 'FALSE';
}
